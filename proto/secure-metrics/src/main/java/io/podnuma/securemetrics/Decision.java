package io.podnuma.securemetrics;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A verdict and why, in words fit for the response body (never the token).
 *
 * @param retryAfter when to ask again: present exactly for {@link Verdict#THROTTLED}
 */
public record Decision(Verdict verdict, String reason, Optional<Duration> retryAfter) {

    public Decision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isPresent() != (verdict == Verdict.THROTTLED)) {
            throw new IllegalArgumentException("a retry delay goes with THROTTLED and only with it, not " + verdict);
        }
    }

    public Decision(Verdict verdict, String reason) {
        this(verdict, reason, Optional.empty());
    }

    /** The {@code Retry-After} header's whole seconds. */
    public Optional<Long> retryAfterSeconds() {
        return retryAfter.map(Decision::wholeSeconds);
    }

    /** {@code d} rounded up to whole seconds, at least 1: a {@code Retry-After} of 0 would invite a retry at once. */
    static long wholeSeconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Math.max(1, s);
    }
}
