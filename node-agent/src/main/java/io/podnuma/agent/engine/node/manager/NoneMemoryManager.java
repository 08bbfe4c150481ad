package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Memory manager policy None: containers use memory on any node and no books are kept. */
public record NoneMemoryManager() implements MemoryManager {

    @Override
    public boolean pinsMemory() {
        return false;
    }

    @Override
    public Optional<Map<String, List<TopologyHint>>> hints(MemoryState state, Map<MemoryResource, Long> request) {
        return Optional.empty();
    }

    @Override
    public MemoryState allocate(
            MemoryState state,
            String owner,
            TopologyHint hint,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges) {
        throw new IllegalStateException(
                "memory manager policy None pins no memory (asked " + sizes + " for " + owner + ")");
    }

    @Override
    public Optional<MemoryState> restore(Map<String, List<MemoryBlock>> owners) {
        return Optional.empty();
    }
}
