package io.podnuma.securemetrics;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A token bucket for API server reviews: it starts full with {@link ReviewRate#burst()} reviews and refills at
 * {@link ReviewRate#perSecond()} up to that. Counted in billionths of a review so that refills are exact whole
 * numbers (a fake clock advanced 200 ms at 5 a second gives exactly one review, not 0.9999).
 */
public final class ReviewBudget {

    private static final long ONE = 1_000_000_000L;

    private final ReviewRate rate;
    private final LongSupplier nanoClock;
    private final long capacity;
    private long credit;
    private long last;

    /** @param nanoClock a monotonic clock in nanoseconds, {@link System#nanoTime()} outside tests */
    public ReviewBudget(ReviewRate rate, LongSupplier nanoClock) {
        this.rate = Objects.requireNonNull(rate, "rate");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.capacity = rate.burst() * ONE;
        this.credit = capacity;
        this.last = nanoClock.getAsLong();
    }

    /** Takes one review if one is left. */
    public synchronized boolean tryTake() {
        refill();
        if (credit < ONE) {
            return false;
        }
        credit -= ONE;
        return true;
    }

    /** How long until {@link #tryTake()} would succeed: zero when a review is left now. */
    public synchronized Duration untilNext() {
        refill();
        if (credit >= ONE) {
            return Duration.ZERO;
        }
        long missing = ONE - credit;
        return Duration.ofNanos((missing + rate.perSecond() - 1) / rate.perSecond());
    }

    public ReviewRate rate() {
        return rate;
    }

    private void refill() {
        long now = nanoClock.getAsLong();
        long elapsed = now - last;
        last = now;
        if (elapsed <= 0) {
            // A clock that stepped back would otherwise freeze the budget until it caught up again.
            return;
        }
        // Past `capacity` nanoseconds the bucket is full at any rate of 1 a second or more; capping first keeps the
        // product below Long.MAX_VALUE after a long quiet spell.
        credit = Math.min(capacity, credit + Math.min(elapsed, capacity) * rate.perSecond());
    }
}
