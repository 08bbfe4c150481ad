package io.podnuma.agent.engine.memory;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Memory kept away from pods, per NUMA node and resource (the kubelet's {@code reservedMemory}).
 *
 * @param perNode node id to resource to reserved bytes
 */
public record ReservedMemory(Map<Integer, Map<MemoryResource, Long>> perNode) {

    public ReservedMemory {
        TreeMap<Integer, Map<MemoryResource, Long>> copy = new TreeMap<>();
        for (Map.Entry<Integer, Map<MemoryResource, Long>> node : perNode.entrySet()) {
            TreeMap<MemoryResource, Long> resources = new TreeMap<>();
            for (Map.Entry<MemoryResource, Long> entry : node.getValue().entrySet()) {
                if (entry.getValue() == null || entry.getValue() < 0) {
                    throw new IllegalArgumentException("reservedMemory for NUMA node " + node.getKey() + " "
                            + entry.getKey() + " is " + entry.getValue() + ": it must be a size of 0 or more");
                }
                resources.put(entry.getKey(), entry.getValue());
            }
            copy.put(node.getKey(), Collections.unmodifiableMap(resources));
        }
        perNode = Collections.unmodifiableMap(copy);
    }

    /** Parses quantity strings, e.g. {@code {0: {memory: 1Gi, hugepages-2Mi: 0}}}; errors name node and resource. */
    public static ReservedMemory parse(Map<Integer, Map<String, String>> perNode) {
        TreeMap<Integer, Map<MemoryResource, Long>> parsed = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, String>> node : perNode.entrySet()) {
            TreeMap<MemoryResource, Long> resources = new TreeMap<>();
            for (Map.Entry<String, String> entry : node.getValue().entrySet()) {
                String field = "reservedMemory[numaNode=" + node.getKey() + "]." + entry.getKey();
                MemoryResource resource;
                try {
                    resource = MemoryResource.parse(entry.getKey());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
                }
                resources.put(resource, MemoryQuantity.parseBytes(field, entry.getValue()));
            }
            parsed.put(node.getKey(), resources);
        }
        return new ReservedMemory(parsed);
    }

    public long reserved(int node, MemoryResource resource) {
        Map<MemoryResource, Long> resources = perNode.get(node);
        if (resources == null) {
            return 0;
        }
        return resources.getOrDefault(resource, 0L);
    }

    public long total(MemoryResource resource) {
        long sum = 0;
        for (Map<MemoryResource, Long> resources : perNode.values()) {
            sum = Math.addExact(sum, resources.getOrDefault(resource, 0L));
        }
        return sum;
    }
}
