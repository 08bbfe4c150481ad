package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.Map;
import java.util.Objects;

/**
 * The resource-manager settings for one node, as plain values (the shell maps a {@code NumaResourcePolicy}
 * spec to this).
 *
 * @param reservedCpus required with {@link CpuPolicy#STATIC}, ignored otherwise (may be null)
 * @param reservedMemory required with {@link MemoryPolicy#STATIC}, ignored otherwise
 * @param podLevelResources whether {@code pod.spec.resources} (or the budget annotation) is honoured
 */
public record NodeConfig(
        CpuPolicy cpuPolicy,
        ReservedCpus reservedCpus,
        StaticPolicyOptions cpuOptions,
        MemoryPolicy memoryPolicy,
        ReservedMemory reservedMemory,
        TopologyPolicyName topologyPolicy,
        TopologyScope topologyScope,
        TopologyManagerOptions topologyOptions,
        boolean podLevelResources) {

    public enum CpuPolicy {
        NONE,
        STATIC
    }

    public enum MemoryPolicy {
        NONE,
        STATIC
    }

    public enum TopologyScope {
        CONTAINER,
        POD
    }

    public NodeConfig {
        Objects.requireNonNull(cpuPolicy, "cpuPolicy");
        cpuOptions = cpuOptions == null ? StaticPolicyOptions.NONE : cpuOptions;
        Objects.requireNonNull(memoryPolicy, "memoryPolicy");
        reservedMemory = reservedMemory == null ? new ReservedMemory(Map.of()) : reservedMemory;
        Objects.requireNonNull(topologyPolicy, "topologyPolicy");
        Objects.requireNonNull(topologyScope, "topologyScope");
        topologyOptions = topologyOptions == null ? TopologyManagerOptions.defaults() : topologyOptions;
        if (cpuPolicy == CpuPolicy.STATIC && reservedCpus == null) {
            throw new IllegalArgumentException("cpuManager policy static needs reserved CPUs (a list or a count)");
        }
    }

    /** Everything off: no pinning, every container on the node shared pool. */
    public static NodeConfig none() {
        return new NodeConfig(
                CpuPolicy.NONE,
                null,
                StaticPolicyOptions.NONE,
                MemoryPolicy.NONE,
                null,
                TopologyPolicyName.NONE,
                TopologyScope.CONTAINER,
                TopologyManagerOptions.defaults(),
                true);
    }
}
