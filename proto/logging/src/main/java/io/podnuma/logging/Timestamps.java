package io.podnuma.logging;

import java.time.LocalDate;

/**
 * ISO-8601 UTC with milliseconds ({@code 2026-12-07T00:21:04.123Z}) without java.time's formatter: the date is made
 * once a day, the time of day by arithmetic, so a line costs no formatter objects and the first one no formatter
 * classes.
 */
final class Timestamps {

    private static final long MILLIS_PER_DAY = 86_400_000L;

    /** The day of {@link #datePrefix} and its text; one immutable pair, so a racing reader sees either or the other. */
    private static volatile Day cached = new Day(Long.MIN_VALUE, "");

    private Timestamps() {}

    static String format(long epochMillis) {
        StringBuilder sb = new StringBuilder(24);
        append(sb, epochMillis);
        return sb.toString();
    }

    static void append(StringBuilder sb, long epochMillis) {
        long day = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        int ms = (int) Math.floorMod(epochMillis, MILLIS_PER_DAY);
        sb.append(datePrefix(day));
        two(sb, ms / 3_600_000);
        sb.append(':');
        two(sb, ms / 60_000 % 60);
        sb.append(':');
        two(sb, ms / 1000 % 60);
        sb.append('.');
        int millis = ms % 1000;
        sb.append((char) ('0' + millis / 100))
                .append((char) ('0' + millis / 10 % 10))
                .append((char) ('0' + millis % 10));
        sb.append('Z');
    }

    private static String datePrefix(long day) {
        Day d = cached;
        if (d.day != day) {
            // LocalDate.toString is ISO-8601 (yyyy-MM-dd, with a sign past year 9999).
            d = new Day(day, LocalDate.ofEpochDay(day) + "T");
            cached = d;
        }
        return d.text;
    }

    private static void two(StringBuilder sb, int v) {
        sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    private record Day(long day, String text) {}
}
