package io.podnuma.agent.engine.memory;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one NUMA node holds, as discovered on the machine.
 *
 * @param node the NUMA node id
 * @param memoryBytes total memory of the node ({@code MemTotal}), huge pages included
 * @param hugepagesBytes per huge page size (bytes), the total bytes of pre-allocated huge pages
 */
public record NumaMemory(int node, long memoryBytes, Map<Long, Long> hugepagesBytes) {

    public NumaMemory {
        if (node < 0 || node >= 64) {
            throw new IllegalArgumentException("NUMA node id " + node + " is out of range: allowed 0..63");
        }
        if (memoryBytes < 0) {
            throw new IllegalArgumentException("NUMA node " + node + " memory " + memoryBytes + " is negative");
        }
        TreeMap<Long, Long> copy = new TreeMap<>();
        for (Map.Entry<Long, Long> entry : hugepagesBytes.entrySet()) {
            long pageSize = entry.getKey();
            long total = entry.getValue();
            if (pageSize <= 0) {
                throw new IllegalArgumentException(
                        "NUMA node " + node + " has huge page size " + pageSize + ": sizes must be positive");
            }
            if (total < 0 || total % pageSize != 0) {
                throw new IllegalArgumentException("NUMA node " + node + " huge pages of "
                        + MemoryQuantity.format(pageSize) + " total " + total
                        + " bytes: the total must be a non-negative multiple of the page size");
            }
            copy.put(pageSize, total);
        }
        hugepagesBytes = Collections.unmodifiableMap(copy);
    }

    public static NumaMemory of(int node, long memoryBytes) {
        return new NumaMemory(node, memoryBytes, Map.of());
    }

    public long hugepagesTotalBytes() {
        long sum = 0;
        for (long bytes : hugepagesBytes.values()) {
            sum = Math.addExact(sum, bytes);
        }
        return sum;
    }
}
