package io.podnuma.testkit.agent;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import io.podnuma.testkit.host.KubeletLikeHost;
import java.math.BigDecimal;
import java.nio.file.Path;

/**
 * The agent configuration (a {@link NodeAgentConfig}) most runtime tests and the bench use: single-numa-node at pod
 * scope, the static CPU policy with a reservation, pod-level resources. Tests add their keys with the builder;
 * {@link AgentProcess} adds where the agent keeps its files and writes the file with {@code NodeAgentConfigYaml}.
 */
public final class SampleConfigs {

    private SampleConfigs() {}

    /** The static CPU policy with {@code cpus} (a Linux CPU list, e.g. {@code "0,64"}) reserved for the system. */
    public static CpuManager reservedCpus(String cpus) {
        return new CpuManager(CpuManagerPolicy.STATIC, cpus, null, null, null);
    }

    /** The static CPU policy with {@code count} CPUs reserved for the system. */
    public static CpuManager reservedCpuCount(int count) {
        return new CpuManager(CpuManagerPolicy.STATIC, null, count, null, null);
    }

    /** The pod-scope policy with the given CPU manager, admission and NodeResourceTopology export. */
    public static NumaResourcePolicySpec podScopePolicy(
            CpuManager cpuManager, AdmissionAction admission, boolean exportNodeResourceTopology) {
        return new NumaResourcePolicySpec(
                null,
                null,
                new TopologyManager(TopologyManagerPolicy.SINGLE_NUMA_NODE, TopologyManagerScope.POD, null),
                cpuManager,
                null,
                new PodLevelResources(true, null),
                admission,
                exportNodeResourceTopology);
    }

    /** A spec selecting the nodes labelled {@code key=value} at {@code priority}, everything else the defaults. */
    public static NumaResourcePolicySpec selectingOnly(String key, String value, int priority) {
        return new NumaResourcePolicySpec(
                new LabelSelectorBuilder().addToMatchLabels(key, value).build(),
                priority,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** {@code spec} selecting the nodes labelled {@code key=value} (and nothing else changed). */
    public static NumaResourcePolicySpec selecting(NumaResourcePolicySpec spec, String key, String value) {
        return new NumaResourcePolicySpec(
                new LabelSelectorBuilder().addToMatchLabels(key, value).build(),
                spec.priority(),
                spec.topologyManager(),
                spec.cpuManager(),
                spec.memoryManager(),
                spec.podLevelResources(),
                spec.admission(),
                spec.exportNodeResourceTopology());
    }

    /**
     * A file for {@code node} that reads and validates but whose policy fits no machine: the static CPU policy with
     * every CPU up to 4095 reserved. A start that got past the lock and the directories stops with "the policy does
     * not fit this machine", so a test of a refusal that must come earlier sees that one or this, and nothing served.
     */
    public static NodeAgentConfig.Builder unfittable(String node, Path sysfs, Path stateDir, Path podResourcesSocket) {
        return NodeAgentConfig.builder(
                        node,
                        new NumaResourcePolicySpec(null, null, null, reservedCpus("0-4095"), null, null, null, null))
                .sysfsRoot(sysfs.toString())
                .stateDir(stateDir.toString())
                .podResourcesSocket(podResourcesSocket.toString())
                .metricsPort(1)
                .healthPort(2);
    }

    /** A file for {@code node} with the pod-scope policy (admission Warn, no NodeResourceTopology). */
    public static NodeAgentConfig.Builder podScope(String node, CpuManager cpuManager) {
        return NodeAgentConfig.builder(node, podScopePolicy(cpuManager, AdmissionAction.WARN, false));
    }

    /**
     * The bench's agent (and its class cache's training run): the pod-scope policy named {@code policy} with CPU 0
     * reserved, on {@code host}'s systemd cgroups, and no PodResources rate limit to speak of (the bench calls
     * {@code List} as fast as it can).
     */
    public static NodeAgentConfig.Builder benchNode(String node, String policy, KubeletLikeHost host) {
        return podScope(node, reservedCpus("0"))
                .policyName(policy)
                .kubeletCgroupRoot(host.kubeletCgroupRoot())
                .cgroupDriver("systemd")
                .podResourcesQps(BigDecimal.valueOf(1_000_000))
                .podResourcesBurst(1_000_000);
    }
}
