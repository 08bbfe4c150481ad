package io.podnuma.demo.pinning;

import java.util.List;

/** Reading Prometheus text exposition without a client library: the demo needs a few samples only. */
final class Metrics {

    private Metrics() {}

    /** The value of the sample line {@code name} (with its labels, if any, as written); NaN when absent. */
    static double value(String text, String sample) {
        return text.lines()
                .filter(l -> l.startsWith(sample + " "))
                .mapToDouble(
                        l -> Double.parseDouble(l.substring(sample.length() + 1).strip()))
                .findFirst()
                .orElse(Double.NaN);
    }

    /** The sample lines (not comments) whose metric name is one of {@code names}. */
    static List<String> lines(String text, List<String> names) {
        return text.lines()
                .filter(l -> !l.startsWith("#"))
                .filter(l -> names.stream().anyMatch(n -> l.startsWith(n + " ") || l.startsWith(n + "{")))
                .toList();
    }
}
