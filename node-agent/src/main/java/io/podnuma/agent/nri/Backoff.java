package io.podnuma.agent.nri;

import java.time.Duration;
import java.util.Objects;

/** Exponential reconnect delays: {@code min}, doubling per failed attempt, capped at {@code max}. */
record Backoff(Duration min, Duration max, Duration delay) {

    Backoff {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(delay, "delay");
    }

    static Backoff start(Duration min, Duration max) {
        return new Backoff(min, max, min);
    }

    /** The state after waiting {@link #delay()} once more. */
    Backoff next() {
        Duration doubled = delay.multipliedBy(2);
        return new Backoff(min, max, doubled.compareTo(max) > 0 ? max : doubled);
    }

    /** Back to {@code min}: after a connection that worked, the next outage starts with short delays again. */
    Backoff reset() {
        return start(min, max);
    }
}
