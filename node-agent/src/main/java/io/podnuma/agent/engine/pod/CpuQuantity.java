package io.podnuma.agent.engine.pod;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Kubernetes CPU quantities ({@code 2}, {@code 500m}, {@code 1.5}, {@code 2000m}) as millicores. Like the API
 * server, precision below one millicore rounds up.
 */
public final class CpuQuantity {

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigDecimal MAX_MILLIS = BigDecimal.valueOf(Long.MAX_VALUE / 2);

    private CpuQuantity() {}

    /**
     * @param what names the field in error messages, e.g. {@code "containers[app].resources.requests.cpu"}
     */
    public static long parseMillis(String what, String text) {
        if (text == null || text.isBlank()) {
            throw invalid(what, text, "it is empty");
        }
        String s = text.strip();
        BigDecimal cores;
        try {
            if (s.endsWith("m")) {
                cores = new BigDecimal(s.substring(0, s.length() - 1)).divide(THOUSAND);
            } else if (s.endsWith("k")) {
                cores = new BigDecimal(s.substring(0, s.length() - 1)).multiply(THOUSAND);
            } else {
                cores = new BigDecimal(s);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(what, text, "use whole or decimal cores (2, 1.5) or millicores (500m)");
        }
        if (cores.signum() < 0) {
            throw invalid(what, text, "CPU cannot be negative");
        }
        BigDecimal millis = cores.multiply(THOUSAND).setScale(0, RoundingMode.CEILING);
        if (millis.compareTo(MAX_MILLIS) > 0) {
            throw invalid(what, text, "it is too large");
        }
        return millis.longValueExact();
    }

    /** {@code 2}, {@code 1500m}: whole cores without suffix, else millicores. */
    public static String format(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : millis + "m";
    }

    private static IllegalArgumentException invalid(String what, String text, String why) {
        return new IllegalArgumentException(
                what + " \"" + (text == null ? "" : text) + "\" is not a valid CPU quantity: " + why);
    }
}
