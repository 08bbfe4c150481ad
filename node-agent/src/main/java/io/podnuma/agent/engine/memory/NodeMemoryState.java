package io.podnuma.agent.engine.memory;

import io.podnuma.agent.engine.topology.NumaMask;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One NUMA node in the memory manager's books.
 *
 * @param node the node id
 * @param tables accounting per resource the node has
 * @param assignments number of memory blocks that include this node
 * @param group the nodes this node is allocated together with: itself when it has no blocks or only
 *     single-node blocks, else the multi-node group every one of its blocks spans
 */
public record NodeMemoryState(int node, Map<MemoryResource, MemoryTable> tables, int assignments, NumaMask group) {

    public NodeMemoryState {
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        if (assignments < 0) {
            throw new IllegalStateException("NUMA node " + node + " has " + assignments + " assignments");
        }
        if (!group.contains(node)) {
            throw new IllegalStateException("NUMA node " + node + " group " + group + " does not contain it");
        }
    }

    public MemoryTable table(MemoryResource resource) {
        return tables.get(resource);
    }

    public boolean inMultiNodeGroup() {
        return group.count() > 1;
    }

    NodeMemoryState with(MemoryResource resource, MemoryTable table) {
        TreeMap<MemoryResource, MemoryTable> copy = new TreeMap<>(tables);
        copy.put(resource, table);
        return new NodeMemoryState(node, copy, assignments, group);
    }

    NodeMemoryState assigned(NumaMask blockNodes) {
        return new NodeMemoryState(node, tables, assignments + 1, blockNodes);
    }

    NodeMemoryState unassigned() {
        int left = assignments - 1;
        return new NodeMemoryState(node, tables, left, left == 0 ? NumaMask.of(node) : group);
    }
}
