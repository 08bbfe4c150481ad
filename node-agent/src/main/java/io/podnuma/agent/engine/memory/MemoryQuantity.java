package io.podnuma.agent.engine.memory;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Kubernetes quantity strings for memory, in bytes: {@code 2Gi}, {@code 512Mi}, {@code 1G}, {@code 100M},
 * {@code 1.5Gi}, {@code 1e9}, {@code 4096}.
 */
public final class MemoryQuantity {

    private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String DECIMAL_SUFFIXES = "numkMGTPE";
    private static final int[] DECIMAL_EXPONENTS = {-9, -6, -3, 3, 6, 9, 12, 15, 18};
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private MemoryQuantity() {}

    /**
     * Parses a quantity into whole bytes.
     *
     * @param what names the field in error messages, e.g. {@code "reservedMemory[0].memory"}
     */
    public static long parseBytes(String what, String text) {
        if (text == null || text.isBlank()) {
            throw invalid(what, text, "it is empty");
        }
        String s = text.trim();
        int end = numberEnd(s);
        if (end == 0) {
            throw invalid(what, text, "it does not start with a number");
        }
        BigDecimal number;
        try {
            number = new BigDecimal(s.substring(0, end));
        } catch (NumberFormatException e) {
            throw invalid(what, text, "\"" + s.substring(0, end) + "\" is not a number");
        }
        BigDecimal bytes = number.multiply(multiplier(what, text, s.substring(end)));
        if (bytes.signum() < 0) {
            throw invalid(what, text, "memory cannot be negative");
        }
        BigDecimal whole = bytes.stripTrailingZeros();
        if (whole.scale() > 0) {
            throw invalid(what, text, "it is not a whole number of bytes (" + whole.toPlainString() + ")");
        }
        if (whole.compareTo(MAX) > 0) {
            throw invalid(what, text, "it exceeds the largest supported size of " + Long.MAX_VALUE + " bytes");
        }
        return whole.longValueExact();
    }

    public static long parseBytes(String text) {
        return parseBytes("memory quantity", text);
    }

    /** The shortest exact form: the largest binary suffix that divides the value, else plain bytes. */
    public static String format(long bytes) {
        if (bytes == 0) {
            return "0";
        }
        long value = bytes;
        int suffix = -1;
        while (suffix + 1 < BINARY_SUFFIXES.length && value % 1024 == 0) {
            value /= 1024;
            suffix++;
        }
        return suffix < 0 ? Long.toString(bytes) : value + BINARY_SUFFIXES[suffix];
    }

    private static int numberEnd(String s) {
        int i = 0;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
            digits++;
        }
        return digits == 0 ? 0 : i;
    }

    private static BigDecimal multiplier(String what, String text, String suffix) {
        if (suffix.isEmpty()) {
            return BigDecimal.ONE;
        }
        for (int i = 0; i < BINARY_SUFFIXES.length; i++) {
            if (BINARY_SUFFIXES[i].equals(suffix)) {
                return new BigDecimal(BigInteger.ONE.shiftLeft(10 * (i + 1)));
            }
        }
        if (suffix.length() == 1 && DECIMAL_SUFFIXES.indexOf(suffix.charAt(0)) >= 0) {
            return BigDecimal.ONE.scaleByPowerOfTen(DECIMAL_EXPONENTS[DECIMAL_SUFFIXES.indexOf(suffix.charAt(0))]);
        }
        if (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E') {
            try {
                int exponent = Integer.parseInt(suffix.substring(1));
                if (Math.abs(exponent) > 30) {
                    throw invalid(what, text, "exponent " + exponent + " is out of range");
                }
                return BigDecimal.ONE.scaleByPowerOfTen(exponent);
            } catch (NumberFormatException e) {
                // fall through to the generic message
            }
        }
        throw invalid(
                what,
                text,
                "unknown suffix \"" + suffix
                        + "\": use Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E, an exponent like e9, or none for bytes");
    }

    private static IllegalArgumentException invalid(String what, String text, String why) {
        return new IllegalArgumentException(
                what + " \"" + (text == null ? "" : text) + "\" is not a valid memory quantity: " + why);
    }
}
