package io.podnuma.e2e.footprint;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The changes of the node's pods during the idle window, seen by a watch like the agent's own, and which fields each
 * changed (JSON paths, list indexes kept, {@code metadata.resourceVersion} and {@code managedFields} left out): an idle
 * window with pods still changing measures the agent's work on them, not its idle cost. Also when they changed (per
 * 30 s since the watch began) and, for each changed field, its first change ({@code before → after}), since what a
 * writer changes over and over is worth seeing. Printed beside the table, never asserted.
 */
final class PodEventCount implements AutoCloseable {

    private static final long HALF_MINUTE_NANOS = 30_000_000_000L;

    private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> changedPaths = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> last = new ConcurrentHashMap<>();
    private final Map<String, String> firstChange = new ConcurrentHashMap<>();
    private final Map<Long, LongAdder> perHalfMinute = new ConcurrentHashMap<>();
    private final long startNanos = System.nanoTime();
    private final Watch watch;

    private PodEventCount(KubernetesClient client, String node) {
        // From the list's resource version: the watch tells only what changes after it, no ADDED for what exists.
        PodList listed =
                client.pods().inAnyNamespace().withField("spec.nodeName", node).list();
        listed.getItems().forEach(p -> last.put(p.getMetadata().getUid(), tree(p)));
        String version = listed.getMetadata().getResourceVersion();
        this.watch = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .withResourceVersion(version)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        String key = action + " " + pod.getMetadata().getNamespace();
                        byKind.computeIfAbsent(key, k -> new LongAdder()).increment();
                        perHalfMinute
                                .computeIfAbsent(
                                        (System.nanoTime() - startNanos) / HALF_MINUTE_NANOS, k -> new LongAdder())
                                .increment();
                        JsonNode now = tree(pod);
                        JsonNode was = last.put(pod.getMetadata().getUid(), now);
                        if (was != null) {
                            for (String path : JsonPaths.changed(was, now)) {
                                changedPaths
                                        .computeIfAbsent(path, k -> new LongAdder())
                                        .increment();
                                firstChange.computeIfAbsent(
                                        path, k -> shown(JsonPaths.at(was, k)) + " → " + shown(JsonPaths.at(now, k)));
                            }
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        byKind.computeIfAbsent("watch closed: " + cause.getMessage(), k -> new LongAdder())
                                .increment();
                    }
                });
    }

    static PodEventCount watch(KubernetesClient client, String node) {
        return new PodEventCount(client, node);
    }

    /** {@code ACTION namespace ×N}, or that nothing changed. */
    String summary() {
        Map<String, Long> sorted = new TreeMap<>();
        byKind.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted.isEmpty()
                ? "none"
                : sorted.entrySet().stream()
                        .map(e -> e.getKey() + " ×" + e.getValue())
                        .collect(Collectors.joining(", "));
    }

    /** {@code path ×N} for the fields the modifications changed, most often first (at most {@code top}). */
    String changedFields(int top) {
        return changedPaths.isEmpty()
                ? "none"
                : changedPaths.entrySet().stream()
                        .sorted(Map.Entry.<String, LongAdder>comparingByValue(
                                        java.util.Comparator.comparingLong(LongAdder::sum))
                                .reversed()
                                .thenComparing(Map.Entry.comparingByKey()))
                        .limit(top)
                        .map(e -> e.getKey() + " ×" + e.getValue().sum() + " (first: "
                                + firstChange.getOrDefault(e.getKey(), "?") + ")")
                        .collect(Collectors.joining(", "));
    }

    /** Whole seconds from the watch's start to {@code nanos} (a {@link System#nanoTime()}). */
    long secondsSinceStart(long nanos) {
        return (nanos - startNanos) / 1_000_000_000L;
    }

    /** The events in each 30 s since the watch began, {@code 0-30 s: N}, every half minute up to {@code span}. */
    String timeline(Duration span) {
        long halves = Math.max(1, (span.toSeconds() + 29) / 30);
        StringBuilder out = new StringBuilder();
        for (long h = 0; h < halves; h++) {
            LongAdder n = perHalfMinute.get(h);
            out.append(h == 0 ? "" : ", ")
                    .append(h * 30)
                    .append('-')
                    .append(h * 30 + 30)
                    .append(" s: ")
                    .append(n == null ? 0 : n.sum());
        }
        return out.toString();
    }

    private static String shown(JsonNode value) {
        return value.isMissingNode() ? "(absent)" : value.toString();
    }

    private static JsonNode tree(Pod pod) {
        return Serialization.jsonMapper().valueToTree(pod);
    }

    @Override
    public void close() {
        watch.close();
    }
}
