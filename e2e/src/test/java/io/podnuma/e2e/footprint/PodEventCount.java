package io.podnuma.e2e.footprint;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * The changes of the node's pods during the idle window, seen by a watch like the agent's own: an idle window with
 * pods still changing measures the agent's work on them, not its idle cost. Printed beside the table, never asserted.
 */
final class PodEventCount implements AutoCloseable {

    private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
    private final Watch watch;

    private PodEventCount(KubernetesClient client, String node) {
        // From now on: no resource version, so the watch starts with no synthetic ADDED events for what exists.
        String version = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getMetadata()
                .getResourceVersion();
        this.watch = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .withResourceVersion(version)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        String key = action + " " + pod.getMetadata().getNamespace();
                        byKind.computeIfAbsent(key, k -> new LongAdder()).increment();
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

    @Override
    public void close() {
        watch.close();
    }
}
