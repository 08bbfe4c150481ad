package io.podnuma.bench.operator;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The API server's {@code apiserver_request_total} counter from its {@code /metrics} text, summed over the labels the
 * bench does not look at (response code, component, scope, dry run, version): requests by verb and resource.
 *
 * @param counts key → requests counted since the API server started
 * @param refused the part of {@code counts} answered with a code other than 2xx (e.g. 409 Conflict)
 */
public record ApiRequestCounts(Map<Key, Long> counts, Map<Key, Long> refused) {

    public static final String METRIC = "apiserver_request_total";

    /**
     * Verbs that change something. The API server reports a server-side apply as {@code APPLY}, not {@code PATCH}.
     */
    public static final Set<String> WRITE_VERBS = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");

    /** One resource and verb; {@code subresource} is empty for the object itself (e.g. {@code status} otherwise). */
    public record Key(String verb, String group, String resource, String subresource) implements Comparable<Key> {

        @Override
        public int compareTo(Key o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            String gr = group.isEmpty() ? resource : resource + "." + group;
            return verb + " " + gr + (subresource.isEmpty() ? "" : "/" + subresource);
        }
    }

    public ApiRequestCounts {
        counts = Collections.unmodifiableMap(new TreeMap<>(counts));
        refused = Collections.unmodifiableMap(new TreeMap<>(refused));
    }

    public ApiRequestCounts(Map<Key, Long> counts) {
        this(counts, Map.of());
    }

    /**
     * Reads every {@value #METRIC} sample of the text; other metrics are skipped.
     *
     * @throws IllegalArgumentException naming the line when a sample of this metric cannot be read
     */
    public static ApiRequestCounts parse(String metricsText) {
        Map<Key, Long> counts = new TreeMap<>();
        Map<Key, Long> refused = new TreeMap<>();
        for (String line : metricsText.split("\n")) {
            if (!line.startsWith(METRIC + "{") && !line.startsWith(METRIC + " ")) {
                continue;
            }
            int close = line.lastIndexOf('}');
            Map<String, String> labels = close < 0 ? Map.of() : labels(line, METRIC.length() + 1, close);
            String[] rest = line.substring(close < 0 ? METRIC.length() : close + 1)
                    .strip()
                    .split("\\s+");
            double value;
            try {
                value = Double.parseDouble(rest[0]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("no value in: " + line);
            }
            Key key = new Key(
                    labels.getOrDefault("verb", ""),
                    labels.getOrDefault("group", ""),
                    labels.getOrDefault("resource", ""),
                    labels.getOrDefault("subresource", ""));
            counts.merge(key, Math.round(value), Long::sum);
            if (!labels.getOrDefault("code", "200").startsWith("2")) {
                refused.merge(key, Math.round(value), Long::sum);
            }
        }
        return new ApiRequestCounts(counts, refused);
    }

    /** The label set between the braces: {@code name="value"} pairs, values with {@code \"}, {@code \\}, {@code \n}. */
    private static Map<String, String> labels(String line, int from, int to) {
        Map<String, String> out = new TreeMap<>();
        int i = from;
        while (i < to) {
            int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= to || line.charAt(eq + 1) != '"') {
                throw new IllegalArgumentException("bad label at column " + i + " in: " + line);
            }
            String name = line.substring(i, eq).strip();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < to && line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\' && j + 1 < to) {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            if (j >= to) {
                throw new IllegalArgumentException("unterminated label value of " + name + " in: " + line);
            }
            out.put(name, value.toString());
            i = j + 1;
            if (i < to && line.charAt(i) == ',') {
                i++;
            }
        }
        return out;
    }

    /** What was counted from {@code before} to this: each key's increase (keys that did not move are left out). */
    public ApiRequestCounts since(ApiRequestCounts before) {
        return new ApiRequestCounts(increase(counts, before.counts), increase(refused, before.refused));
    }

    private static Map<Key, Long> increase(Map<Key, Long> now, Map<Key, Long> before) {
        Map<Key, Long> out = new TreeMap<>();
        now.forEach((key, n) -> {
            long d = n - before.getOrDefault(key, 0L);
            if (d != 0) {
                out.put(key, d);
            }
        });
        return out;
    }

    /** Only the write verbs on the given resources (plain resource names, e.g. {@code nodes}). */
    public ApiRequestCounts writesOn(Set<String> resources) {
        return new ApiRequestCounts(writes(counts, resources), writes(refused, resources));
    }

    private static Map<Key, Long> writes(Map<Key, Long> from, Set<String> resources) {
        Map<Key, Long> out = new TreeMap<>();
        from.forEach((key, n) -> {
            if (WRITE_VERBS.contains(key.verb()) && resources.contains(key.resource())) {
                out.put(key, n);
            }
        });
        return out;
    }

    /** How many of the requests were refused (not 2xx). */
    public long refusedTotal() {
        return refused.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The sum of every count. */
    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The sum over the keys on {@code resource} (any verb, any subresource). */
    public long on(String resource) {
        return counts.entrySet().stream()
                .filter(e -> e.getKey().resource().equals(resource))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** The same counts with {@code n} requests of {@code key} taken off (the bench's own writes), never below 0. */
    public ApiRequestCounts minus(Key key, long n) {
        Map<Key, Long> out = new TreeMap<>(counts);
        long left = Math.max(0, out.getOrDefault(key, 0L) - n);
        if (left == 0) {
            out.remove(key);
        } else {
            out.put(key, left);
        }
        return new ApiRequestCounts(out, refused);
    }

    /**
     * {@code "APPLY daemonsets.apps 50, PATCH nodes 5000"}, or {@code "none"}; a key with refused requests says how
     * many: {@code "APPLY numaresourcepolicies.podnuma.io/status 13 (3 refused)"}.
     */
    public String describe() {
        if (counts.isEmpty()) {
            return "none";
        }
        StringBuilder out = new StringBuilder();
        counts.forEach((key, n) -> {
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(key).append(' ').append(n);
            long r = refused.getOrDefault(key, 0L);
            if (r > 0) {
                out.append(" (").append(r).append(" refused)");
            }
        });
        return out.toString();
    }
}
