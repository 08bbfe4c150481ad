package io.podnuma.operator.archfixture;

import java.time.Clock;
import java.time.Instant;

/** A mistake for the purity rule's self-test: a decision reading the time instead of being given it. */
public final class ClockReadingDecision {
    public static Instant instantNow() {
        return Instant.now();
    }

    public static long millis() {
        return System.currentTimeMillis();
    }

    public static Instant fromClock(Clock clock) {
        return clock.instant();
    }
}
