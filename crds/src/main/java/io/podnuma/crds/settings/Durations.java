package io.podnuma.crds.settings;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written the Kubernetes way: {@code 500ms}, {@code 10s}, {@code 1m30s}, {@code 1h}. */
public final class Durations {

    private static final Pattern WHOLE = Pattern.compile("(?:\\d{1,9}(?:ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private Durations() {}

    /**
     * A duration from {@code min} to {@code max}.
     *
     * @throws IllegalArgumentException saying what is allowed, for text that is no duration and for one out of range
     */
    public static Duration within(String value, Duration min, Duration max) {
        Duration d = WHOLE.matcher(value).matches() ? sum(value) : null;
        if (d == null || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException("allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m,"
                    + " h) from " + format(min) + " to " + format(max));
        }
        return d;
    }

    private static Duration sum(String value) {
        Duration d = Duration.ZERO;
        Matcher m = PART.matcher(value);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofHours(n);
                    });
        }
        return d;
    }

    /** The shortest form {@link #within} reads back to the same value: {@code 90s} is {@code 1m30s}. */
    public static String format(Duration d) {
        StringBuilder sb = new StringBuilder();
        long h = d.toHours();
        long m = d.toMinutesPart();
        long s = d.toSecondsPart();
        long ms = d.toMillisPart();
        if (h > 0) {
            sb.append(h).append('h');
        }
        if (m > 0) {
            sb.append(m).append('m');
        }
        if (s > 0) {
            sb.append(s).append('s');
        }
        if (ms > 0) {
            sb.append(ms).append("ms");
        }
        return sb.isEmpty() ? "0s" : sb.toString();
    }
}
