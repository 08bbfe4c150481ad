package io.podnuma.securemetrics;

import io.podnuma.ratelimit.TokenBucket;
import java.util.function.LongSupplier;

/**
 * How many scrapes with a token the gate has no decision for may reach the API server: {@code burst} at once, then
 * {@code perSecond}. Each such scrape costs a TokenReview (and a SubjectAccessReview when the token is valid), so
 * without a bound anyone who reaches the port makes the API server work once per random token.
 *
 * @param burst reviews allowed at once after a quiet spell, 1 to {@value #MAX}
 * @param perSecond reviews allowed a second in a lasting flood, 1 to {@value #MAX}
 */
public record ReviewRate(int burst, int perSecond) {

    static final int MAX = 10_000;

    /**
     * Room for a restart of every scraper at once (a Prometheus pair, a few agents' monitors, a person with curl)
     * while a flood costs the API server at most five reviews a second.
     */
    public static final ReviewRate DEFAULT = new ReviewRate(20, 5);

    public ReviewRate {
        if (burst < 1 || burst > MAX || perSecond < 1 || perSecond > MAX) {
            throw new IllegalArgumentException("token review rate: burst " + burst + " and " + perSecond
                    + " a second: allowed whole numbers 1 to " + MAX + " for each, e.g. burst 20, 5 a second");
        }
    }

    /** A full bucket of this rate, refilled by {@code nanoClock} ({@link System#nanoTime()} outside tests). */
    public TokenBucket bucket(LongSupplier nanoClock) {
        return new TokenBucket(perSecond, burst, nanoClock);
    }
}
