package io.podnuma.jvmmetrics;

import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Objects;

/**
 * The process's and the JVM's own series, under the names of the Prometheus Java client's JVM instrumentation
 * ({@code process_resident_memory_bytes}, {@code process_cpu_seconds_total}, {@code jvm_memory_used_bytes},
 * {@code jvm_gc_collection_seconds}, {@code jvm_threads_current}, ...), for the node agent's and the operator's
 * {@code /metrics}: an alert on a component's memory or CPU needs no join with cAdvisor's container series, and
 * dashboards written for any JVM exporter find them.
 *
 * <p>Only collectors that read their values when scraped: no thread, no listener, nothing between two scrapes. So
 * not {@code JvmMetrics.builder()}, which also registers the pool allocation counters (a listener called after every
 * collection), native memory tracking (it asks the platform MBean server, which it creates at registration, for a
 * report that is empty unless the JVM runs with {@code -XX:NativeMemoryTracking}), and the class loading, JIT
 * compilation, buffer pool and runtime info series, which no alert of ours reads.
 *
 * <p>The collectors are made at the first scrape, not at registration: making them loads the JVM's management
 * classes and native libraries, 50-70 ms of CPU under the agent's flags, which would otherwise be spent before the
 * agent is ready.
 */
public final class JvmProcessMetrics {

    private JvmProcessMetrics() {}

    /**
     * Registers {@code process_*} (CPU seconds, start time, open and maximum file descriptors, resident and virtual
     * memory from {@code /proc/self/status}), {@code jvm_memory_*} (heap and non-heap, per pool),
     * {@code jvm_gc_collection_seconds} (count and time per collector) and {@code jvm_threads_*}; once per registry.
     */
    public static void register(PrometheusRegistry registry) {
        Objects.requireNonNull(registry, "registry").register(new OnFirstScrape());
    }

    /** The four collectors in a registry of their own, made when first collected. */
    private static final class OnFirstScrape implements MultiCollector {

        private volatile PrometheusRegistry collectors;

        @Override
        public MetricSnapshots collect() {
            PrometheusRegistry made = collectors;
            if (made == null) {
                synchronized (this) {
                    if (collectors == null) {
                        collectors = make();
                    }
                    made = collectors;
                }
            }
            return made.scrape();
        }

        private static PrometheusRegistry make() {
            PrometheusRegistry own = new PrometheusRegistry();
            ProcessMetrics.builder().register(own);
            JvmMemoryMetrics.builder().register(own);
            JvmGarbageCollectorMetrics.builder().register(own);
            JvmThreadsMetrics.builder().register(own);
            return own;
        }
    }
}
