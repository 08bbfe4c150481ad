package io.podnuma.e2e.footprint;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cgroup v1 {@code memory.stat} file: one {@code <key> <bytes>} a line. The {@code total_} keys count the cgroup and
 * every cgroup below it (for a pod: its pause container and its containers), the others the cgroup's own tasks only.
 */
record MemoryStat(Map<String, Long> values) {

    MemoryStat {
        values = Map.copyOf(values);
    }

    /**
     * Parses the file's text.
     *
     * @throws IllegalArgumentException naming the line that is not {@code <key> <non-negative integer>}
     */
    static MemoryStat parse(String text) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.strip().split("\\s+");
            if (f.length != 2 || !f[1].matches("[0-9]+")) {
                throw new IllegalArgumentException("not a memory.stat line (<key> <bytes>): '" + line + "'");
            }
            values.put(f[0], Long.parseLong(f[1]));
        }
        return new MemoryStat(values);
    }

    /**
     * The value of {@code key}.
     *
     * @throws IllegalArgumentException when the file has no such key (another kernel's names, or not a v1 file)
     */
    long get(String key) {
        Long v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("memory.stat has no " + key + " (keys: " + values.keySet() + ")");
        }
        return v;
    }

    /** Anonymous memory of the cgroup's tree (heap, stacks, malloc arenas, the JIT's code). */
    long totalRss() {
        return get("total_rss");
    }

    /** Page cache charged to the cgroup's tree (files read or mapped: the image's jar and runtime, logs). */
    long totalCache() {
        return get("total_cache");
    }

    /**
     * The working set the kubelet reports ({@code kubectl top}, the eviction manager): usage less the inactive file
     * pages, which the kernel reclaims first; 0 when the inactive pages exceed the usage (the kubelet's rule).
     */
    long workingSet(long usageBytes) {
        return Math.max(0, usageBytes - get("total_inactive_file"));
    }
}
