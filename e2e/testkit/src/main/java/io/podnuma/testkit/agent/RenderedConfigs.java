package io.podnuma.testkit.agent;

import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;

/**
 * The config file the operator renders into a policy's ConfigMap, as an agent process on this host must read it: the
 * DaemonSet's pod sees the host's sysfs and cgroups at {@code /host/...} and gets its node name from the downward API;
 * a process sees them where they are and is told its node. {@link AgentProcess#configure} then adds where it keeps
 * its files.
 */
public final class RenderedConfigs {

    private RenderedConfigs() {}

    /**
     * {@code rendered} for a process serving {@code node} whose containers' cgroups are under
     * {@code kubeletCgroupRoot} (a kubelet-like host's), with quick reports (2 s reconcile, 200 ms status) for tests.
     */
    public static NodeAgentConfig onThisHost(NodeAgentConfig rendered, String node, String kubeletCgroupRoot) {
        return rendered.toBuilder()
                .nodeName(node)
                .sysfsRoot(null)
                .cgroupRoot(null)
                .kubeletCgroupRoot(kubeletCgroupRoot)
                // No kubelet state on a kwok node.
                .kubeletCheckSocket(null)
                .kubeletPodResourcesSocket(null)
                .kubeletConfigFile(null)
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build();
    }
}
