package io.podnuma.demo.pinning;

import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;

/**
 * The node agent's {@code NodeAgentConfig} for the demo's node, rendered from a {@code NumaResourcePolicy} spec the
 * way the operator renders its ConfigMap; the test kit's agent launcher adds where this agent keeps its files.
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

    public static NodeAgentConfig render(Node node, NumaResourcePolicySpec spec) {
        return NodeAgentConfig.builder(node.nodeName(), spec)
                .policyName(node.policyName())
                .kubeletCgroupRoot(node.kubeletCgroupRoot())
                // Quick reports for a demo; the defaults (10s, 1s) suit a cluster.
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build();
    }
}
