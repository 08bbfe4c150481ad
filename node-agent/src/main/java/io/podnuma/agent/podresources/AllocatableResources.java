package io.podnuma.agent.podresources;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.memory.MemoryTable;
import io.podnuma.agent.engine.memory.NodeMemoryState;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code GetAllocatableResources} reports: capacity, not what is free now.
 *
 * @param cpus the CPUs the static policy may hand out exclusively; empty without it (the kubelet's none policy)
 * @param memory per NUMA node and memory type, sorted by node then type; empty without the Static memory policy
 */
public record AllocatableResources(CpuSet cpus, List<AllocatableMemory> memory) {

    public static final AllocatableResources NONE = new AllocatableResources(CpuSet.empty(), List.of());

    public AllocatableResources {
        Objects.requireNonNull(cpus, "cpus");
        memory = memory.stream()
                .sorted(Comparator.comparingInt(AllocatableMemory::numaNode).thenComparing(AllocatableMemory::resource))
                .toList();
    }

    /**
     * The kubelet's answer for this allocator: online CPUs minus reserved CPUs under the static CPU policy, and
     * per NUMA node each memory type's allocatable bytes under the Static memory policy (types with nothing
     * allocatable are left out, as the kubelet does).
     */
    public static AllocatableResources of(NodeAllocator allocator) {
        CpuSet cpus = allocator.config().cpuPolicy() == NodeConfig.CpuPolicy.STATIC
                ? allocator.topology().onlineCpus().difference(allocator.reservedCpus())
                : CpuSet.empty();
        List<AllocatableMemory> memory = new ArrayList<>();
        MemoryState books = allocator.memoryState(allocator.initialState());
        if (books != null) {
            for (NodeMemoryState node : books.nodes().values()) {
                for (Map.Entry<MemoryResource, MemoryTable> table :
                        node.tables().entrySet()) {
                    long bytes = table.getValue().allocatable();
                    if (bytes > 0) {
                        memory.add(new AllocatableMemory(node.node(), table.getKey(), bytes));
                    }
                }
            }
        }
        return new AllocatableResources(cpus, memory);
    }
}
