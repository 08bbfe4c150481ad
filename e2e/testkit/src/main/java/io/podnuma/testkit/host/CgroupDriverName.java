package io.podnuma.testkit.host;

/** The kubelet's {@code cgroupDriver}: how it and the runtime name the pod and container cgroups. */
public enum CgroupDriverName {
    /** {@code kubepods/burstable/pod<uid>/<container id>}. */
    CGROUPFS,
    /** {@code kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid, - as _>.slice/cri-containerd-<id>.scope}. */
    SYSTEMD;

    /** The value of the kubelet's (and the agent's) {@code cgroupDriver} setting. */
    public String configValue() {
        return this == CGROUPFS ? "cgroupfs" : "systemd";
    }
}
