package io.podnuma.securemetrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

final class MutableClock extends Clock {

    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");

    private Instant now = START;

    void advance(Duration d) {
        now = now.plus(d);
    }

    /** A monotonic reading of the same time, as {@link System#nanoTime()} gives. */
    long nanoTime() {
        return Duration.between(START, now).toNanos();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
