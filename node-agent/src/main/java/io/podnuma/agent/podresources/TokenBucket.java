package io.podnuma.agent.podresources;

import java.util.function.LongSupplier;

/**
 * A token bucket like Go's {@code golang.org/x/time/rate.Limiter}, which the kubelet uses: it starts full with
 * {@code burst} tokens, refills at {@code qps} tokens a second up to {@code burst}, and a call takes one token or
 * is refused.
 */
public final class TokenBucket {

    private final double qps;
    private final int burst;
    private final LongSupplier nanoClock;
    private double tokens;
    private long last;

    public TokenBucket(double qps, int burst, LongSupplier nanoClock) {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException(
                    "PodResources rate limit qps " + qps + " is invalid: use a positive number, e.g. 100");
        }
        if (burst < 1) {
            throw new IllegalArgumentException(
                    "PodResources rate limit burst " + burst + " is invalid: use 1 or more, e.g. 10");
        }
        this.qps = qps;
        this.burst = burst;
        this.nanoClock = nanoClock;
        this.tokens = burst;
        this.last = nanoClock.getAsLong();
    }

    public TokenBucket(double qps, int burst) {
        this(qps, burst, System::nanoTime);
    }

    /** Takes a token if one is there. */
    public synchronized boolean tryAcquire() {
        long now = nanoClock.getAsLong();
        long elapsed = now - last;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * qps / 1e9);
            last = now;
        }
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    public double qps() {
        return qps;
    }

    public int burst() {
        return burst;
    }
}
