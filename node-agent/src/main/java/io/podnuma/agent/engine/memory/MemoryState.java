package io.podnuma.agent.engine.memory;

import io.podnuma.agent.engine.topology.NumaMask;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The memory manager's books as an immutable value: every NUMA node's accounting and the blocks of every
 * owner. Owners are opaque keys chosen by the caller (e.g. {@code <pod uid>/<container>} or a pod uid).
 */
public final class MemoryState {

    private final Map<Integer, NodeMemoryState> nodes;
    private final Map<String, List<MemoryBlock>> blocks;

    MemoryState(Map<Integer, NodeMemoryState> nodes, Map<String, List<MemoryBlock>> blocks) {
        this.nodes = Collections.unmodifiableMap(new TreeMap<>(nodes));
        TreeMap<String, List<MemoryBlock>> copy = new TreeMap<>();
        blocks.forEach((owner, list) -> copy.put(owner, List.copyOf(list)));
        this.blocks = Collections.unmodifiableMap(copy);
    }

    public Map<Integer, NodeMemoryState> nodes() {
        return nodes;
    }

    public NodeMemoryState node(int id) {
        NodeMemoryState state = nodes.get(id);
        if (state == null) {
            throw new IllegalArgumentException("NUMA node " + id + " does not exist: the machine has " + nodeIds());
        }
        return state;
    }

    public NumaMask nodeIds() {
        return NumaMask.of(nodes.keySet());
    }

    /** The blocks held by each owner. */
    public Map<String, List<MemoryBlock>> blocks() {
        return blocks;
    }

    /** The owner's blocks, empty if it holds none. */
    public List<MemoryBlock> blocks(String owner) {
        return blocks.getOrDefault(owner, List.of());
    }

    /** The NUMA nodes of the owner's blocks: what its {@code cpuset.mems} should be (empty: no pinning). */
    public NumaMask memoryNodes(String owner) {
        NumaMask mask = NumaMask.empty();
        for (MemoryBlock block : blocks(owner)) {
            mask = mask.or(block.nodes());
        }
        return mask;
    }

    public long free(NumaMask mask, MemoryResource resource) {
        long sum = 0;
        for (int node : mask.toArray()) {
            MemoryTable table = node(node).table(resource);
            sum += table == null ? 0 : table.free();
        }
        return sum;
    }

    public long allocatable(NumaMask mask, MemoryResource resource) {
        long sum = 0;
        for (int node : mask.toArray()) {
            MemoryTable table = node(node).table(resource);
            sum += table == null ? 0 : table.allocatable();
        }
        return sum;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemoryState other && nodes.equals(other.nodes) && blocks.equals(other.blocks);
    }

    @Override
    public int hashCode() {
        return 31 * nodes.hashCode() + blocks.hashCode();
    }

    @Override
    public String toString() {
        return "MemoryState{nodes=" + nodes + ", blocks=" + blocks + "}";
    }
}
