package io.podnuma.agent.engine.pod;

import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The resources the engine cares about in one {@code requests} or {@code limits} list: CPU in millicores and
 * memory plus each huge page size in bytes. Absent entries are absent (not zero); other resources (storage,
 * devices) are not modelled.
 *
 * @param cpuMillis CPU in millicores, or {@code null} when the list has no {@code cpu}
 * @param memory bytes per memory resource ({@code memory}, {@code hugepages-<size>}) present in the list
 */
public record ResourceList(Long cpuMillis, SortedMap<MemoryResource, Long> memory) {

    public static final ResourceList EMPTY = new ResourceList(null, new TreeMap<>());

    public ResourceList {
        if (cpuMillis != null && cpuMillis < 0) {
            throw new IllegalArgumentException("cpu " + cpuMillis + "m must not be negative");
        }
        TreeMap<MemoryResource, Long> copy = new TreeMap<>();
        for (Map.Entry<MemoryResource, Long> e : memory.entrySet()) {
            if (e.getValue() == null || e.getValue() < 0) {
                throw new IllegalArgumentException(e.getKey() + " " + e.getValue() + " must be a size of 0 or more");
            }
            copy.put(e.getKey(), e.getValue());
        }
        memory = Collections.unmodifiableSortedMap(copy);
    }

    /** A list with CPU (millicores, may be null) and regular memory (bytes, may be null). */
    public static ResourceList of(Long cpuMillis, Long memoryBytes) {
        TreeMap<MemoryResource, Long> m = new TreeMap<>();
        if (memoryBytes != null) {
            m.put(MemoryResource.MEMORY, memoryBytes);
        }
        return new ResourceList(cpuMillis, m);
    }

    public ResourceList with(MemoryResource resource, long bytes) {
        TreeMap<MemoryResource, Long> m = new TreeMap<>(memory);
        m.put(resource, bytes);
        return new ResourceList(cpuMillis, m);
    }

    public OptionalLong cpu() {
        return cpuMillis == null ? OptionalLong.empty() : OptionalLong.of(cpuMillis);
    }

    public OptionalLong memoryBytes() {
        Long v = memory.get(MemoryResource.MEMORY);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** Whether the list names CPU or regular memory (what decides QoS). */
    public boolean hasCpuOrMemory() {
        return cpuMillis != null || memory.containsKey(MemoryResource.MEMORY);
    }

    public boolean isEmpty() {
        return cpuMillis == null && memory.isEmpty();
    }

    /** This list with every entry it lacks taken from {@code defaults} (the API server's request defaulting). */
    public ResourceList orElse(ResourceList defaults) {
        TreeMap<MemoryResource, Long> m = new TreeMap<>(defaults.memory);
        m.putAll(memory);
        return new ResourceList(cpuMillis != null ? cpuMillis : defaults.cpuMillis, m);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        if (cpuMillis != null) {
            sb.append("cpu=").append(CpuQuantity.format(cpuMillis));
        }
        for (Map.Entry<MemoryResource, Long> e : memory.entrySet()) {
            sb.append(sb.length() > 1 ? ", " : "")
                    .append(e.getKey())
                    .append('=')
                    .append(MemoryQuantity.format(e.getValue()));
        }
        return sb.append('}').toString();
    }
}
