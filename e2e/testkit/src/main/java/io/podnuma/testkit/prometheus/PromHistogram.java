package io.podnuma.testkit.prometheus;

import java.util.Map;
import java.util.TreeMap;

/**
 * One classic Prometheus histogram read from the text format: cumulative counts per upper bound. Two scrapes give
 * the observations made in between ({@link #minus}); a quantile is the upper bound of the bucket it falls in, so it
 * is an upper limit, never an exact value.
 */
public record PromHistogram(TreeMap<Double, Long> cumulative) {

    public static PromHistogram parse(String text, String name) {
        TreeMap<Double, Long> buckets = new TreeMap<>();
        String prefix = name + "_bucket{";
        for (String line : text.split("\n")) {
            if (!line.startsWith(prefix)) {
                continue;
            }
            int le = Math.max(line.indexOf("{le=\""), line.indexOf(",le=\""));
            int end = le < 0 ? -1 : line.indexOf('"', le + 5);
            int close = end < 0 ? -1 : line.indexOf('}', end);
            if (close < 0) {
                throw new IllegalArgumentException("a bucket of " + name + " without a le label: " + line);
            }
            String bound = line.substring(le + 5, end);
            double upper = bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
            long count = (long) Double.parseDouble(line.substring(close + 1).strip());
            buckets.merge(upper, count, Long::sum);
        }
        return new PromHistogram(buckets);
    }

    public long count() {
        return cumulative.isEmpty() ? 0 : cumulative.lastEntry().getValue();
    }

    /** The observations this histogram has and {@code earlier} had not. */
    public PromHistogram minus(PromHistogram earlier) {
        TreeMap<Double, Long> out = new TreeMap<>();
        for (Map.Entry<Double, Long> e : cumulative.entrySet()) {
            out.put(e.getKey(), e.getValue() - earlier.cumulative.getOrDefault(e.getKey(), 0L));
        }
        return new PromHistogram(out);
    }

    /** The upper bound of the bucket holding the {@code q}-quantile (nearest rank); NaN without observations. */
    public double quantileUpperBound(double q) {
        long n = count();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        for (Map.Entry<Double, Long> e : cumulative.entrySet()) {
            if (e.getValue() >= rank) {
                return e.getKey();
            }
        }
        return Double.POSITIVE_INFINITY;
    }
}
