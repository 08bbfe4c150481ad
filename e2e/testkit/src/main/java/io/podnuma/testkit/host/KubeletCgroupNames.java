package io.podnuma.testkit.host;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The names the kubelet (pod cgroups) and containerd (container cgroups) give on a cgroup v1 host, relative to a
 * hierarchy's root. Written from the kubelet's and containerd's behaviour as observed on the real node (see
 * BUILD-NOTES "What the real kubelet/containerd create"), never from the agent's code: tests that make cgroups with
 * these names fail when the agent's naming is wrong.
 */
public final class KubeletCgroupNames {

    private static final Pattern CONTAINER_ID = Pattern.compile("[0-9a-f]{64}");

    private KubeletCgroupNames() {}

    /** The top of the pods' tree: {@code kubepods} or {@code kubepods.slice}. */
    public static Path kubepods(CgroupDriverName driver) {
        return Path.of(driver == CgroupDriverName.CGROUPFS ? "kubepods" : "kubepods.slice");
    }

    /**
     * The pod's cgroup. Guaranteed pods sit directly under kubepods, the others under their QoS class. cgroupfs:
     * {@code kubepods/burstable/pod<uid>}; systemd writes a slice per level, each named with its parents, and the
     * UID's dashes as underscores (a dash separates parents in a unit name):
     * {@code kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_with_underscores>.slice}.
     */
    public static Path pod(CgroupDriverName driver, QosClass qos, String podUid) {
        Path top = kubepods(driver);
        return switch (driver) {
            case CGROUPFS -> {
                Path parent = qos == QosClass.GUARANTEED ? top : top.resolve(qos.cgroupName());
                yield parent.resolve("pod" + podUid);
            }
            case SYSTEMD -> {
                String slice = qos == QosClass.GUARANTEED ? "kubepods" : "kubepods-" + qos.cgroupName();
                Path parent = qos == QosClass.GUARANTEED ? top : top.resolve(slice + ".slice");
                yield parent.resolve(slice + "-pod" + podUid.replace('-', '_') + ".slice");
            }
        };
    }

    /** Whether a directory name is one containerd gives a container's cgroup under {@code driver}. */
    public static boolean isContainerName(CgroupDriverName driver, String name) {
        return switch (driver) {
            case CGROUPFS -> CONTAINER_ID.matcher(name).matches();
            case SYSTEMD ->
                name.startsWith("cri-containerd-")
                        && name.endsWith(".scope")
                        && CONTAINER_ID
                                .matcher(name.substring("cri-containerd-".length(), name.length() - ".scope".length()))
                                .matches();
        };
    }

    /**
     * The container's cgroup, inside its pod's: containerd names it by the bare ID under cgroupfs, and as the
     * transient unit {@code cri-containerd-<id>.scope} under systemd.
     */
    public static Path container(CgroupDriverName driver, PodContainer c) {
        Path pod = pod(driver, c.qos(), c.podUid());
        return switch (driver) {
            case CGROUPFS -> pod.resolve(c.containerId());
            case SYSTEMD -> pod.resolve("cri-containerd-" + c.containerId() + ".scope");
        };
    }
}
