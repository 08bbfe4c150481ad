package io.podnuma.bench.agent;

import java.util.Arrays;

/**
 * Percentiles of a set of durations by the nearest-rank rule: p-th percentile = the smallest sample with at least p%
 * of the samples at or below it, so every figure is a value that was measured.
 */
public record LatencySummary(int count, long p50Nanos, long p99Nanos, long maxNanos, long meanNanos) {

    public static LatencySummary of(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no samples: at least one duration is needed for percentiles");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        long sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        return new LatencySummary(
                sorted.length,
                rank(sorted, 50),
                rank(sorted, 99),
                sorted[sorted.length - 1],
                Math.round((double) sum / sorted.length));
    }

    private static long rank(long[] sorted, int percent) {
        int r = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(r, 1) - 1];
    }
}
