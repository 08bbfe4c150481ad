package io.podnuma.agent.policy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerOptions;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.NumaMemoryReservation;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import io.podnuma.crds.v1alpha1.policy.validation.PolicyValidator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Maps a {@code NumaResourcePolicy} spec to the engine's {@link NodeConfig}. */
public final class NodeConfigMapper {

    private NodeConfigMapper() {}

    /** The engine configuration and the pod budget annotation key (null: none). */
    public record Mapped(NodeConfig config, String budgetAnnotation) {}

    /**
     * @throws IllegalArgumentException naming the {@code spec.} field and value that cannot be used; the spec is
     *     first checked with {@link PolicyValidator} (all its problems, separated by "; ")
     */
    public static Mapped map(NumaResourcePolicySpec spec) {
        List<String> problems = PolicyValidator.validate(spec, "spec");
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        var tm = spec.topologyManager();
        TopologyPolicyName topologyPolicy = TopologyPolicyName.parse(
                tm.policy() == null
                        ? "none"
                        : tm.policy().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        var tmo = tm.options();
        TopologyManagerOptions topologyOptions = new TopologyManagerOptions(
                Boolean.TRUE.equals(tmo.preferClosestNumaNodes()),
                tmo.maxAllowableNumaNodes() == null
                        ? TopologyManagerOptions.DEFAULT_MAX_ALLOWABLE_NUMA_NODES
                        : tmo.maxAllowableNumaNodes());
        CpuManager cm = spec.cpuManager();
        NodeConfig.CpuPolicy cpuPolicy =
                cm.policy() == CpuManagerPolicy.STATIC ? NodeConfig.CpuPolicy.STATIC : NodeConfig.CpuPolicy.NONE;
        ReservedCpus reserved = null;
        if (cm.reservedCpus() != null) {
            try {
                reserved = ReservedCpus.explicit(CpuSet.parse(cm.reservedCpus()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "spec.cpuManager.reservedCpus \"" + cm.reservedCpus() + "\": " + e.getMessage(), e);
            }
        } else if (cm.reservedCpuCount() != null) {
            reserved = ReservedCpus.count(cm.reservedCpuCount());
        }
        if (cpuPolicy == NodeConfig.CpuPolicy.STATIC && reserved == null) {
            throw new IllegalArgumentException(
                    "spec.cpuManager: policy static needs reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)");
        }
        var mm = spec.memoryManager();
        NodeConfig.MemoryPolicy memoryPolicy = mm.policy() == MemoryManagerPolicy.STATIC
                ? NodeConfig.MemoryPolicy.STATIC
                : NodeConfig.MemoryPolicy.NONE;
        Map<Integer, Map<String, String>> perNode = new TreeMap<>();
        int index = 0;
        for (NumaMemoryReservation r :
                mm.reservedMemory() == null ? List.<NumaMemoryReservation>of() : mm.reservedMemory()) {
            if (r.numaNode() == null) {
                throw new IllegalArgumentException(
                        "spec.memoryManager.reservedMemory[" + index + "].numaNode is missing");
            }
            Map<String, String> limits = new LinkedHashMap<>();
            for (Map.Entry<String, Quantity> e :
                    (r.limits() == null ? Map.<String, Quantity>of() : r.limits()).entrySet()) {
                limits.put(e.getKey(), PolicyValidator.amount(e.getValue()));
            }
            perNode.put(r.numaNode(), limits);
            index++;
        }
        ReservedMemory reservedMemory;
        try {
            reservedMemory = ReservedMemory.parse(perNode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.memoryManager." + e.getMessage(), e);
        }
        var plr = spec.podLevelResources();
        NodeConfig config = new NodeConfig(
                cpuPolicy,
                reserved,
                options(cm.options()),
                memoryPolicy,
                reservedMemory,
                topologyPolicy,
                tm.scope() == TopologyManagerScope.POD
                        ? NodeConfig.TopologyScope.POD
                        : NodeConfig.TopologyScope.CONTAINER,
                topologyOptions,
                Boolean.TRUE.equals(plr.enabled()));
        return new Mapped(config, Boolean.TRUE.equals(plr.enabled()) ? plr.budgetAnnotation() : null);
    }

    private static StaticPolicyOptions options(CpuManagerOptions o) {
        return new StaticPolicyOptions(
                Boolean.TRUE.equals(o.fullPcpusOnly()),
                Boolean.TRUE.equals(o.distributeCpusAcrossNuma()),
                Boolean.TRUE.equals(o.alignBySocket()),
                Boolean.TRUE.equals(o.distributeCpusAcrossCores()),
                Boolean.TRUE.equals(o.strictCpuReservation()),
                Boolean.TRUE.equals(o.preferAlignCpusByUncoreCache()));
    }
}
