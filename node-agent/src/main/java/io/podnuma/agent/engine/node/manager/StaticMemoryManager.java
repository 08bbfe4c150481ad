package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.memory.StaticMemoryPolicy;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Memory manager policy Static: blocks and books from {@link StaticMemoryPolicy}. */
public record StaticMemoryManager(StaticMemoryPolicy policy) implements MemoryManager {

    public StaticMemoryManager {
        Objects.requireNonNull(policy, "policy");
    }

    @Override
    public boolean pinsMemory() {
        return true;
    }

    @Override
    public Optional<Map<String, List<TopologyHint>>> hints(MemoryState state, Map<MemoryResource, Long> request) {
        return Optional.of(policy.hints(state, request));
    }

    @Override
    public MemoryState allocate(
            MemoryState state,
            String owner,
            TopologyHint hint,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges) {
        return policy.allocate(state, owner, hint, sizes, charges);
    }

    @Override
    public Optional<MemoryState> restore(Map<String, List<MemoryBlock>> owners) {
        return Optional.of(policy.restore(owners));
    }
}
