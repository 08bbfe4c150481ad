package io.podnuma.agent.engine.machine;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One NUMA node: its online CPUs (empty for a memory-only node such as CXL memory), its memory and
 * its pre-allocated hugepages.
 *
 * @param id the node id
 * @param cpus online CPUs of the node
 * @param memoryBytes {@code MemTotal} of the node
 * @param hugepages number of pre-allocated pages by page size in KiB (e.g. 2048, 1048576)
 * @param distances distances to every node, in ascending node-id order, as the kernel lists them
 */
public record NumaNode(int id, CpuSet cpus, long memoryBytes, Map<Long, Long> hugepages, List<Integer> distances) {

    public NumaNode {
        Objects.requireNonNull(cpus, "cpus");
        if (memoryBytes < 0) {
            throw new IllegalArgumentException("memory of NUMA node " + id + " is negative: " + memoryBytes);
        }
        hugepages = Collections.unmodifiableMap(new TreeMap<>(hugepages));
        distances = List.copyOf(distances);
    }

    /** A node with memory but no CPUs (CXL expanders, HBM in flat mode, offlined CPUs). */
    public boolean memoryOnly() {
        return cpus.isEmpty();
    }

    /** Bytes held by pre-allocated hugepages of every size. */
    public long hugepageBytes() {
        long total = 0;
        for (Map.Entry<Long, Long> e : hugepages.entrySet()) {
            total += e.getKey() * 1024L * e.getValue();
        }
        return total;
    }
}
