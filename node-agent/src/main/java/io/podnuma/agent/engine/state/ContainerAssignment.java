package io.podnuma.agent.engine.state;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.List;
import java.util.Objects;

/**
 * What one container got.
 *
 * @param cpus the exclusive CPUs, or the pod shared pool it runs on; empty for {@link AssignmentKind#NODE_SHARED}
 *     (the node pool changes over time, so it is resolved by {@link NodeState#cpusOf})
 * @param memory the container's own pinned memory blocks (empty when its memory is not exclusive)
 * @param memoryNodes the container's {@code cpuset.mems}: its blocks' nodes, or its pod's memory nodes; empty
 *     means not pinned
 */
public record ContainerAssignment(
        String name,
        ContainerType type,
        AssignmentKind kind,
        CpuSet cpus,
        List<MemoryBlock> memory,
        NumaMask memoryNodes) {

    public ContainerAssignment {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cpus, "cpus");
        memory = List.copyOf(memory);
        Objects.requireNonNull(memoryNodes, "memoryNodes");
        if (kind == AssignmentKind.NODE_SHARED && !cpus.isEmpty()) {
            throw new IllegalArgumentException("container " + name + " is node-shared but lists CPUs " + cpus
                    + ": node-shared containers follow" + " the node pool and list none");
        }
        if (kind != AssignmentKind.NODE_SHARED && cpus.isEmpty()) {
            throw new IllegalArgumentException("container " + name + " is " + kind.wireName() + " but has no CPUs");
        }
    }
}
