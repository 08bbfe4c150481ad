package io.podnuma.testkit.prometheus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Prometheus text format 0.0.4 read without a client library, for tests: a strict line-by-line reader
 * ({@link #parse}, fails on any line it cannot read), and lookups of one sample line as written ({@link #sampleValue}).
 * Histograms: {@link PromHistogram}.
 */
public record PrometheusText(Map<String, String> types, List<Sample> samples) {

    public record Sample(String name, Map<String, String> labels, double value) {}

    public static PrometheusText parse(String text) {
        Map<String, String> types = new TreeMap<>();
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("# HELP ")) {
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                if (parts.length != 2 || types.put(parts[0], parts[1]) != null) {
                    throw new IllegalArgumentException("bad or repeated TYPE line: " + line);
                }
                continue;
            }
            if (line.startsWith("#")) {
                throw new IllegalArgumentException("unexpected comment: " + line);
            }
            samples.add(sample(line));
        }
        return new PrometheusText(types, samples);
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.lastIndexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("no value: " + line);
        }
        String name;
        Map<String, String> labels = new TreeMap<>();
        if (brace >= 0 && brace < space) {
            name = line.substring(0, brace);
            int close = line.lastIndexOf('}');
            String body = line.substring(brace + 1, close);
            int i = 0;
            while (i < body.length()) {
                int eq = body.indexOf("=\"", i);
                String key = body.substring(i, eq);
                int end = body.indexOf('"', eq + 2);
                labels.put(key, body.substring(eq + 2, end));
                i = end + 1;
                if (i < body.length() && body.charAt(i) == ',') {
                    i++;
                }
            }
        } else {
            name = line.substring(0, space);
        }
        if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
            throw new IllegalArgumentException("bad metric name in: " + line);
        }
        return new Sample(name, labels, Double.parseDouble(line.substring(space + 1)));
    }

    /**
     * The value of the first sample line {@code sample} (the metric name with its labels, if any, as written), e.g.
     * {@code podnuma_drift_detected_total}; NaN when there is none. Reads the text as it is, strict or not.
     */
    public static double sampleValue(String text, String sample) {
        return text.lines()
                .filter(l -> l.startsWith(sample + " "))
                .mapToDouble(
                        l -> Double.parseDouble(l.substring(sample.length() + 1).strip()))
                .findFirst()
                .orElse(Double.NaN);
    }

    /** The sample lines (not comments) whose metric name is one of {@code names}. */
    public static List<String> lines(String text, List<String> names) {
        return text.lines()
                .filter(l -> !l.startsWith("#"))
                .filter(l -> names.stream().anyMatch(n -> l.startsWith(n + " ") || l.startsWith(n + "{")))
                .toList();
    }

    /** The sum of the samples with this name whose labels include {@code labels} (0 when there is none). */
    public double sum(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value)
                .sum();
    }

    /** The one sample with this name and exactly these labels. */
    public double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + labels + ", found " + found);
        }
        return found.getFirst().value();
    }

    public double value(String name) {
        return value(name, Map.of());
    }

    public Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }

    /**
     * The family a sample belongs to: histograms' _bucket/_count/_sum samples belong to the histogram, summaries'
     * _count/_sum samples to the summary.
     */
    public String familyOf(Sample s) {
        if (types.containsKey(s.name())) {
            return s.name();
        }
        for (String suffix : List.of("_bucket", "_count", "_sum")) {
            if (s.name().endsWith(suffix)) {
                String base = s.name().substring(0, s.name().length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || ("summary".equals(type) && !suffix.equals("_bucket"))) {
                    return base;
                }
            }
        }
        throw new AssertionError("sample " + s + " belongs to no TYPE line");
    }
}
