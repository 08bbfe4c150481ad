package io.podnuma.e2e.footprint;

import io.podnuma.testkit.prometheus.PrometheusText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the agent did during the idle window, for whoever reads the node bench's idle CPU: which of its counters moved
 * (every {@code _total} and histogram {@code _count} sample that grew) and which of its threads used the CPU. Printed
 * beside the table, never asserted.
 */
final class IdleActivity {

    private IdleActivity() {}

    /** {@code name{labels} +delta} for each counter sample that grew between the two scrapes, largest first. */
    static List<String> counters(PrometheusText before, PrometheusText after) {
        Map<String, Double> was = new HashMap<>();
        for (PrometheusText.Sample s : before.samples()) {
            was.put(key(s), s.value());
        }
        List<Map.Entry<String, Double>> grew = new ArrayList<>();
        for (PrometheusText.Sample s : after.samples()) {
            if (!s.name().endsWith("_total") && !s.name().endsWith("_count")) {
                continue;
            }
            double delta = s.value() - was.getOrDefault(key(s), 0.0);
            if (delta > 0) {
                grew.add(Map.entry(key(s), delta));
            }
        }
        grew.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return grew.stream()
                .map(e -> String.format(Locale.ROOT, "%s +%s", e.getKey(), number(e.getValue())))
                .toList();
    }

    /**
     * The threads by the CPU they used between the two readings, in millicores of {@code windowNanos}, busiest first;
     * threads of one name (a pool) summed.
     */
    static List<String> threads(
            Map<Long, ProcFs.ThreadCpu> before, Map<Long, ProcFs.ThreadCpu> after, double windowNanos, int top) {
        return busiest(before, after, top, nanos -> String.format(Locale.ROOT, "%.2f m", nanos / windowNanos * 1000));
    }

    /**
     * The threads by the CPU they used since they started, in milliseconds, busiest first; threads of one name summed.
     * What a start cost, thread by thread (threads that have ended are not in {@code /proc} any more).
     */
    static List<String> threadsSinceStart(Map<Long, ProcFs.ThreadCpu> now, int top) {
        return busiest(Map.of(), now, top, nanos -> String.format(Locale.ROOT, "%d ms", Math.round(nanos / 1e6)));
    }

    /**
     * How long the threads waited runnable for a CPU, in all and the main thread's share: time a start lost to a busy
     * CPU rather than to its own work or to I/O.
     */
    static String runQueueWait(Map<Long, ProcFs.ThreadCpu> threads) {
        long all =
                threads.values().stream().mapToLong(ProcFs.ThreadCpu::waitNanos).sum();
        long main = threads.values().stream()
                .filter(t -> t.name().equals("java") || t.name().equals("main"))
                .mapToLong(ProcFs.ThreadCpu::waitNanos)
                .sum();
        return String.format(
                Locale.ROOT, "%d ms in all, the main thread %d ms", Math.round(all / 1e6), Math.round(main / 1e6));
    }

    private static List<String> busiest(
            Map<Long, ProcFs.ThreadCpu> before,
            Map<Long, ProcFs.ThreadCpu> after,
            int top,
            java.util.function.LongFunction<String> amount) {
        Map<String, Long> byName = new TreeMap<>();
        after.forEach((tid, t) -> {
            ProcFs.ThreadCpu was = before.get(tid);
            long used = t.nanos() - (was == null ? 0 : was.nanos());
            if (used > 0) {
                byName.merge(t.name(), used, Long::sum);
            }
        });
        return byName.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(top)
                .map(e -> e.getKey() + " " + amount.apply(e.getValue()))
                .toList();
    }

    private static String key(PrometheusText.Sample s) {
        return s.labels().isEmpty()
                ? s.name()
                : s.name()
                        + s.labels().entrySet().stream()
                                .map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
