package io.podnuma.jvmmetrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class JvmProcessMetricsTest {

    @Test
    void registersTheProcessMemoryGcAndThreadFamiliesAndNoneOfTheOthers() {
        PrometheusRegistry registry = new PrometheusRegistry();

        JvmProcessMetrics.register(registry);

        Set<String> names = new TreeSet<>();
        registry.scrape().forEach(s -> names.add(s.getMetadata().getPrometheusName()));
        assertThat(names)
                .contains(
                        "process_cpu_seconds",
                        "process_start_time_seconds",
                        "process_open_fds",
                        "process_resident_memory_bytes",
                        "jvm_memory_used_bytes",
                        "jvm_memory_pool_used_bytes",
                        "jvm_gc_collection_seconds",
                        "jvm_threads_current",
                        "jvm_threads_state")
                .allMatch(n -> n.startsWith("process_") || n.startsWith("jvm_"))
                // Registered by JvmMetrics.builder() but left out: a GC listener, the MBean server, unread series.
                .doesNotContain(
                        "jvm_memory_pool_allocated_bytes",
                        "jvm_native_memory_committed_bytes",
                        "jvm_classes_currently_loaded",
                        "jvm_compilation_time_seconds",
                        "jvm_buffer_pool_used_bytes",
                        "jvm_runtime_info");
    }

    @Test
    void residentMemoryIsThisProcesssVmRss() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmProcessMetrics.register(registry);

        long before = vmRssBytes();
        double scraped = gauge(registry.scrape(), "process_resident_memory_bytes");
        long after = vmRssBytes();

        assertThat(scraped).isBetween(Math.min(before, after) * 0.9, Math.max(before, after) * 1.1);
    }

    @Test
    void scrapesRacingForTheFirstOneEachGetEverySeries() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmProcessMetrics.register(registry);
        CountDownLatch go = new CountDownLatch(1);

        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<Set<String>>> scrapes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                scrapes.add(pool.submit(() -> {
                    go.await();
                    Set<String> names = new TreeSet<>();
                    registry.scrape().forEach(s -> names.add(s.getMetadata().getPrometheusName()));
                    return names;
                }));
            }
            go.countDown();
            for (Future<Set<String>> names : scrapes) {
                assertThat(names.get()).contains("process_resident_memory_bytes", "jvm_threads_current");
            }
        }
    }

    private static double gauge(MetricSnapshots snapshots, String name) {
        List<GaugeSnapshot> found = snapshots.stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals(name))
                .filter(GaugeSnapshot.class::isInstance)
                .map(GaugeSnapshot.class::cast)
                .toList();
        assertThat(found).as(name).hasSize(1);
        return found.getFirst().getDataPoints().getFirst().getValue();
    }

    private static long vmRssBytes() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                        .filter(l -> l.startsWith("VmRSS:"))
                        .mapToLong(l -> Long.parseLong(l.substring(6).strip().split("\\s+")[0]))
                        .findFirst()
                        .orElseThrow()
                * 1024;
    }
}
