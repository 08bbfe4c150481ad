package io.podnuma.demo.pinning;

import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;

/**
 * The demo's policy made from a sample written for another machine, and the agent's {@code NodeAgentConfig} the
 * operator rendered from it, mapped to this host; the test kit's agent launcher adds where this agent keeps its files.
 */
public final class AgentConfigFile {

    /** Which node the agent serves, under which policy, and where the kubelet's cgroups are. */
    public record Node(String nodeName, String policyName, String kubeletCgroupRoot) {}

    private AgentConfigFile() {}

    /**
     * The spec with {@code cpuManager.reservedCpus} replaced: a policy written for one instance type names that
     * machine's CPUs, and this machine has others. Other fields are kept as they are.
     */
    public static NumaResourcePolicySpec withReservedCpus(NumaResourcePolicySpec spec, String reservedCpus) {
        CpuManager cpu = spec.cpuManager();
        // The CRD allows one of reservedCpus and reservedCpuCount.
        CpuManager mine = cpu == null
                ? new CpuManager(CpuManagerPolicy.STATIC, reservedCpus, null, null, null)
                : new CpuManager(cpu.policy(), reservedCpus, null, cpu.options(), cpu.reconcilePeriod());
        return new NumaResourcePolicySpec(
                spec.nodeSelector(),
                spec.priority(),
                spec.topologyManager(),
                mine,
                spec.memoryManager(),
                spec.podLevelResources(),
                spec.admission(),
                spec.exportNodeResourceTopology());
    }

    /**
     * The config file the operator rendered into the policy's ConfigMap, as this process must read it: the
     * DaemonSet mounts the host's sysfs and cgroups at {@code /host/...}, a process on the host sees them where they
     * are, and the node name the pod gets from the downward API is given here.
     */
    public static NodeAgentConfig onThisHost(NodeAgentConfig rendered, Node node) {
        return rendered.toBuilder()
                .nodeName(node.nodeName())
                .policyName(node.policyName())
                .sysfsRoot(null)
                .cgroupRoot(null)
                .kubeletCgroupRoot(node.kubeletCgroupRoot())
                // No kubelet state on a kwok node.
                .kubeletStateDir(null)
                .kubeletConfigFile(null)
                // Quick reports for a demo; the defaults (10s, 1s) suit a cluster.
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build();
    }
}
