package io.podnuma.ratelimit;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A token bucket like Go's {@code golang.org/x/time/rate.Limiter}, which the kubelet uses: it starts full with
 * {@code burst} tokens, refills at {@code perSecond} tokens a second up to {@code burst}, and a call takes one token
 * or is refused.
 *
 * <p>Counted in billionths of a token, and the credit is worked out from the last take rather than added up call by
 * call: so refills of a whole-number rate are exact (200 ms at 5 a second is exactly one token, not 0.9999), and
 * calls that take nothing lose nothing to rounding however often they come (a rate of 0.1 asked every nanosecond
 * still fills).
 */
public final class TokenBucket {

    private static final long ONE = 1_000_000_000L;

    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoClock;
    private final long capacity;
    /** The credit at {@link #since}; it grows from there at {@link #perSecond} up to {@link #capacity}. */
    private long credit;

    private long since;

    /**
     * @param perSecond tokens added a second, above 0 (fractions allowed: 0.5 is one every 2 s)
     * @param burst tokens at once after a quiet spell, 1 or more
     * @param nanoClock a monotonic clock in nanoseconds, {@link System#nanoTime()} outside tests
     */
    public TokenBucket(double perSecond, int burst, LongSupplier nanoClock) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException(
                    "token bucket rate " + perSecond + " a second: allowed a number above 0, e.g. 100 or 0.5");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("token bucket burst " + burst + ": allowed 1 or more, e.g. 10");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.capacity = Math.multiplyExact(burst, ONE);
        this.credit = capacity;
        this.since = nanoClock.getAsLong();
    }

    public TokenBucket(double perSecond, int burst) {
        this(perSecond, burst, System::nanoTime);
    }

    /** Takes a token if one is there. */
    public synchronized boolean tryTake() {
        long now = nanoClock.getAsLong();
        long c = creditAt(now);
        if (c < ONE) {
            return false;
        }
        credit = c - ONE;
        since = now;
        return true;
    }

    /** How long until {@link #tryTake()} would succeed: zero when a token is there now. */
    public synchronized Duration untilNext() {
        long missing = ONE - creditAt(nanoClock.getAsLong());
        if (missing <= 0) {
            return Duration.ZERO;
        }
        long wait = (long) Math.ceil(missing / perSecond);
        // The division and the product in creditAt round apart: never name a moment a nanosecond too early.
        while (added(wait) < missing) {
            wait++;
        }
        return Duration.ofNanos(wait);
    }

    public double perSecond() {
        return perSecond;
    }

    public int burst() {
        return burst;
    }

    /** The bucket's size and rate in words, for refusals: {@code 20 at once, then 5 a second}. */
    public String describe() {
        return burst + " at once, then "
                + BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString() + " a second";
    }

    private long creditAt(long now) {
        long elapsed = now - since;
        if (elapsed < 0) {
            // A clock that stepped back would otherwise freeze the bucket until it caught up again.
            since = now;
            return credit;
        }
        return Math.min(capacity, credit + added(elapsed));
    }

    /** Billionths of a token {@code nanos} add; capped first, so that a long quiet spell cannot overflow. */
    private long added(long nanos) {
        double fullAfter = Math.ceil((capacity - credit) / perSecond);
        return (long) Math.floor(Math.min(nanos, fullAfter) * perSecond);
    }
}
