package io.podnuma.bench;

/**
 * One figure of the comparison table.
 *
 * @param id the benchmark id (an {@link AllocationScenario} or {@link MergeShape} id, possibly with a variant)
 * @param status {@code measured}, {@code extrapolated}, {@code timeout} or {@code error}
 * @param nanosPerOp time per operation, or {@code NaN} when none was measured
 * @param errorNanos JMH's 99.9% error margin, or {@code NaN}
 * @param bytesPerOp allocated bytes per operation, or {@code NaN}
 * @param sameAnswer {@code null} when the kubelet gave no answer to compare
 * @param note what the reader needs to know about this figure (timeouts, extrapolation, differences)
 */
public record Measurement(
        String id,
        String status,
        double nanosPerOp,
        double errorNanos,
        double bytesPerOp,
        Boolean sameAnswer,
        String note) {

    public static final String MEASURED = "measured";
    public static final String EXTRAPOLATED = "extrapolated";
    public static final String TIMEOUT = "timeout";

    public boolean hasTime() {
        return !Double.isNaN(nanosPerOp) && nanosPerOp > 0;
    }

    public boolean extrapolated() {
        return EXTRAPOLATED.equals(status);
    }
}
