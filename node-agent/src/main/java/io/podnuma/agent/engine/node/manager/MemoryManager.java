package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node's memory manager, as the kubelet's: {@link NoneMemoryManager} pins nothing, {@link StaticMemoryManager}
 * pins memory and huge pages to NUMA nodes.
 */
public sealed interface MemoryManager permits NoneMemoryManager, StaticMemoryManager {

    /** Whether containers can get pinned memory: the planners ask for none otherwise. */
    boolean pinsMemory();

    /**
     * The memory manager's hints per resource, or empty when it gives none (policy None).
     *
     * @throws io.podnuma.agent.engine.memory.MemoryAllocationException when the request cannot be hinted
     */
    Optional<Map<String, List<TopologyHint>>> hints(MemoryState state, Map<MemoryResource, Long> request);

    /**
     * Pins {@code sizes} for {@code owner} on the hint's nodes, charging {@code charges}.
     *
     * @throws io.podnuma.agent.engine.memory.MemoryAllocationException when no placement fits
     * @throws IllegalStateException under None, which the planners never ask
     */
    MemoryState allocate(
            MemoryState state,
            String owner,
            TopologyHint hint,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges);

    /**
     * The books that hold exactly {@code owners}' blocks; empty under None, which keeps no books.
     *
     * @throws IllegalArgumentException when the blocks do not fit this machine
     */
    Optional<MemoryState> restore(Map<String, List<MemoryBlock>> owners);
}
