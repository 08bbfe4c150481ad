package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.Map;

/** Node configurations used by the engine tests, and by the checkpoint's and the reports' fixtures. */
public final class TestConfigs {

    private TestConfigs() {}

    public static NodeConfig staticCpu(String reserved, TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        return new NodeConfig(
                NodeConfig.CpuPolicy.STATIC,
                ReservedCpus.explicit(CpuSet.parse(reserved)),
                StaticPolicyOptions.NONE,
                NodeConfig.MemoryPolicy.NONE,
                null,
                policy,
                scope,
                TopologyManagerOptions.defaults(),
                true);
    }

    static NodeConfig withOptions(NodeConfig c, StaticPolicyOptions options) {
        return new NodeConfig(
                c.cpuPolicy(),
                c.reservedCpus(),
                options,
                c.memoryPolicy(),
                c.reservedMemory(),
                c.topologyPolicy(),
                c.topologyScope(),
                c.topologyOptions(),
                c.podLevelResources());
    }

    public static NodeConfig withStaticMemory(NodeConfig c, int nodes, String perNode) {
        Map<Integer, Map<MemoryResource, Long>> reserved = new java.util.TreeMap<>();
        for (int n = 0; n < nodes; n++) {
            reserved.put(n, Map.of(MemoryResource.MEMORY, MemoryQuantity.parseBytes(perNode)));
        }
        return new NodeConfig(
                c.cpuPolicy(),
                c.reservedCpus(),
                c.cpuOptions(),
                NodeConfig.MemoryPolicy.STATIC,
                new ReservedMemory(reserved),
                c.topologyPolicy(),
                c.topologyScope(),
                c.topologyOptions(),
                c.podLevelResources());
    }

    static NodeConfig withoutPodLevel(NodeConfig c) {
        return new NodeConfig(
                c.cpuPolicy(),
                c.reservedCpus(),
                c.cpuOptions(),
                c.memoryPolicy(),
                c.reservedMemory(),
                c.topologyPolicy(),
                c.topologyScope(),
                c.topologyOptions(),
                false);
    }
}
