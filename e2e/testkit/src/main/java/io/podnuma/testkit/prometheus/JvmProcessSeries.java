package io.podnuma.testkit.prometheus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The process's and the JVM's series a podnuma component serves ({@code io.podnuma.jvmmetrics.JvmProcessMetrics}),
 * held against what the kernel says of the process that served them: one scrape between two reads of
 * {@code /proc/<pid>}, so each figure the process read of itself lies between the two (with a little slack where the
 * scrape itself moves it).
 */
public final class JvmProcessSeries {

    /** How far the resident set may move while the scrape is served (its buffers, a collection). */
    static final double RSS_SLACK = 0.1;
    /** File descriptors the scrape itself may hold or release (its connection, the status file it reads). */
    static final int FD_SLACK = 8;
    /** {@code /proc/<pid>/stat} counts CPU time in clock ticks; the JVM reads the same counters. */
    static final double CLOCK_TICK_SECONDS = 0.01;

    private JvmProcessSeries() {}

    /** One scrape of the process's {@code /metrics}. */
    @FunctionalInterface
    public interface Scrape {
        String text() throws IOException, InterruptedException;
    }

    /**
     * Scrapes once and checks the series against the kernel's figures for {@code pid}: resident memory against
     * {@code VmRSS}, CPU seconds against {@code utime + stime}, open descriptors against {@code /proc/<pid>/fd}, the
     * start time after {@code startedAfter}, the JVM's threads no more than the process's; heap and non-heap used
     * above zero and within what is committed; at least one memory pool and one collector; no deadlocked thread.
     *
     * @param startedAfter a moment before the process was started
     * @return the scrape, for checks of the component's own (its collectors, its heap's limit)
     * @throws AssertionError naming every series that is missing or out of bounds, with the kernel's figures
     */
    public static PrometheusText check(long pid, Instant startedAfter, Scrape scrape)
            throws IOException, InterruptedException {
        Proc before = Proc.read(pid);
        PrometheusText metrics = PrometheusText.parse(scrape.text());
        Proc after = Proc.read(pid);
        Instant scrapedBy = Instant.now();
        List<String> wrong = new ArrayList<>();

        double rss = one(metrics, "process_resident_memory_bytes", wrong);
        double rssLow = Math.min(before.rssBytes(), after.rssBytes()) * (1 - RSS_SLACK);
        double rssHigh = Math.max(before.rssBytes(), after.rssBytes()) * (1 + RSS_SLACK);
        within(wrong, "process_resident_memory_bytes", rss, rssLow, rssHigh, "VmRSS");
        double virtual = one(metrics, "process_virtual_memory_bytes", wrong);
        within(wrong, "process_virtual_memory_bytes", virtual, rss, Double.MAX_VALUE, "the resident memory and up");

        double cpu = one(metrics, "process_cpu_seconds_total", wrong);
        within(
                wrong,
                "process_cpu_seconds_total",
                cpu,
                before.cpuSeconds() - CLOCK_TICK_SECONDS,
                after.cpuSeconds() + CLOCK_TICK_SECONDS,
                "utime + stime");
        within(wrong, "process_cpu_seconds_total", cpu, Double.MIN_VALUE, Double.MAX_VALUE, "above zero");

        double started = one(metrics, "process_start_time_seconds", wrong);
        within(
                wrong,
                "process_start_time_seconds",
                started,
                seconds(startedAfter.minus(Duration.ofSeconds(1))),
                seconds(scrapedBy),
                "the test's start of the process and now");

        double fds = one(metrics, "process_open_fds", wrong);
        within(
                wrong,
                "process_open_fds",
                fds,
                Math.min(before.openFds(), after.openFds()) - FD_SLACK,
                Math.max(before.openFds(), after.openFds()) + FD_SLACK,
                "/proc/<pid>/fd");
        within(wrong, "process_max_fds", one(metrics, "process_max_fds", wrong), fds, Double.MAX_VALUE, "open fds");

        double heapCommitted = Double.NaN;
        for (String area : List.of("heap", "nonheap")) {
            double used = one(metrics, "jvm_memory_used_bytes", Map.of("area", area), wrong);
            double committed = one(metrics, "jvm_memory_committed_bytes", Map.of("area", area), wrong);
            within(wrong, "jvm_memory_used_bytes{area=" + area + "}", used, 1, committed, "above zero to committed");
            heapCommitted = area.equals("heap") ? committed : heapCommitted;
        }
        double heapMax = one(metrics, "jvm_memory_max_bytes", Map.of("area", "heap"), wrong);
        within(wrong, "jvm_memory_max_bytes{area=heap}", heapMax, heapCommitted, Double.MAX_VALUE, "committed");
        if (labelValues(metrics, "jvm_memory_pool_used_bytes", "pool").isEmpty()) {
            wrong.add("jvm_memory_pool_used_bytes: no pool");
        }
        if (!"summary".equals(metrics.type("jvm_gc_collection_seconds").orElse(""))
                || labelValues(metrics, "jvm_gc_collection_seconds_count", "gc").isEmpty()) {
            wrong.add("jvm_gc_collection_seconds: no summary with a gc label");
        }

        double threads = one(metrics, "jvm_threads_current", wrong);
        within(
                wrong,
                "jvm_threads_current",
                threads,
                1,
                Math.max(before.threads(), after.threads()),
                "the process's threads (the JVM's own GC and compiler threads are not Java threads)");
        within(wrong, "jvm_threads_deadlocked", one(metrics, "jvm_threads_deadlocked", wrong), 0, 0, "none");
        if (labelValues(metrics, "jvm_threads_state", "state").isEmpty()) {
            wrong.add("jvm_threads_state: no state");
        }

        if (!wrong.isEmpty()) {
            throw new AssertionError("the process and JVM series of pid " + pid + " do not match the process (" + before
                    + " before the scrape, " + after + " after):\n  " + String.join("\n  ", wrong));
        }
        return metrics;
    }

    /** The values of one label over the samples of {@code name}. */
    public static TreeSet<String> labelValues(PrometheusText metrics, String name, String label) {
        TreeSet<String> values = new TreeSet<>();
        metrics.samples().stream()
                .filter(s -> s.name().equals(name) && s.labels().containsKey(label))
                .forEach(s -> values.add(s.labels().get(label)));
        return values;
    }

    private static double one(PrometheusText metrics, String name, List<String> wrong) {
        return one(metrics, name, Map.of(), wrong);
    }

    private static double one(PrometheusText metrics, String name, Map<String, String> labels, List<String> wrong) {
        try {
            return metrics.value(name, labels);
        } catch (AssertionError missing) {
            wrong.add(missing.getMessage());
            return Double.NaN;
        }
    }

    private static void within(List<String> wrong, String series, double value, double low, double high, String what) {
        if (!Double.isNaN(value) && !(value >= low && value <= high)) {
            wrong.add(String.format("%s is %s, not within [%s, %s] (%s)", series, value, low, high, what));
        }
    }

    private static double seconds(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }

    /** What the kernel says of a process at one moment. */
    record Proc(long rssBytes, int threads, double cpuSeconds, long openFds) {

        static Proc read(long pid) throws IOException {
            Path dir = Path.of("/proc", Long.toString(pid));
            long rss = -1;
            int threads = -1;
            for (String line : Files.readAllLines(dir.resolve("status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.substring(6).strip().split("\\s+")[0]) * 1024;
                } else if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.substring(8).strip());
                }
            }
            String stat = Files.readString(dir.resolve("stat"));
            // Fields after the command, which may hold spaces: state is the 3rd field, utime the 14th, stime the 15th.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * CLOCK_TICK_SECONDS;
            long fds;
            try (Stream<Path> open = Files.list(dir.resolve("fd"))) {
                fds = open.count();
            }
            if (rss < 0 || threads < 0) {
                throw new IOException(dir.resolve("status") + " has no VmRSS or Threads line");
            }
            return new Proc(rss, threads, cpu, fds);
        }

        @Override
        public String toString() {
            return String.format(
                    "VmRSS %d KiB, %d threads, %.2f s CPU, %d fds", rssBytes / 1024, threads, cpuSeconds, openFds);
        }
    }
}
