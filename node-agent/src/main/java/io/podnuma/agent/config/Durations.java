package io.podnuma.agent.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written the Kubernetes way: {@code 500ms}, {@code 10s}, {@code 1m30s}, {@code 1h}. */
final class Durations {

    private static final Pattern WHOLE = Pattern.compile("(?:\\d{1,9}(?:ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private Durations() {}

    static Duration parse(String value) {
        if (!WHOLE.matcher(value).matches()) {
            throw new IllegalArgumentException("not a duration: write it like 500ms, 10s, 1m30s or 1h");
        }
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

    /** The shortest form {@link #parse} reads back to the same value. */
    static String format(Duration d) {
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
        if (ms > 0 || sb.isEmpty()) {
            sb.append(ms).append("ms");
        }
        return sb.toString();
    }
}
