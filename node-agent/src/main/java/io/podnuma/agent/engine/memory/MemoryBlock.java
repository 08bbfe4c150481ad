package io.podnuma.agent.engine.memory;

import io.podnuma.agent.engine.topology.NumaMask;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Memory of one resource pinned to a set of NUMA nodes for one owner (a container or a pod).
 *
 * @param resource what kind of memory
 * @param size the size the owner asked for; what {@code cpuset.mems} and PodResources report
 * @param nodes the NUMA nodes the owner may use
 * @param charged per node, the bytes actually taken from that node's free memory (their sum may be less
 *     than {@code size} when the caller charged less, e.g. memory reused within a pod); release gives back
 *     exactly these
 */
public record MemoryBlock(MemoryResource resource, long size, NumaMask nodes, Map<Integer, Long> charged) {

    public MemoryBlock {
        charged = Collections.unmodifiableMap(new TreeMap<>(charged));
        long sum = 0;
        for (Map.Entry<Integer, Long> entry : charged.entrySet()) {
            if (!nodes.contains(entry.getKey()) || entry.getValue() < 0) {
                throw new IllegalStateException("block of " + resource + " on " + nodes + " charges " + entry.getValue()
                        + " bytes to node " + entry.getKey());
            }
            sum += entry.getValue();
        }
        if (sum > size) {
            throw new IllegalStateException(
                    "block of " + resource + " on " + nodes + " charges " + sum + " bytes, more than its size " + size);
        }
    }

    public long chargedTotal() {
        long sum = 0;
        for (long bytes : charged.values()) {
            sum += bytes;
        }
        return sum;
    }
}
