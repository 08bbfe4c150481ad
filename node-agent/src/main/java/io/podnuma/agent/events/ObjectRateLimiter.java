package io.podnuma.agent.events;

import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket per object: {@code burst} writes at once, then one more per {@code refillEvery}. The buckets kept are
 * bounded (least recently used go first; a forgotten object simply starts again with a full bucket). Thread-safe.
 */
final class ObjectRateLimiter {

    private static final class Bucket {
        double tokens;
        long refilledAtNanos;

        Bucket(double tokens, long refilledAtNanos) {
            this.tokens = tokens;
            this.refilledAtNanos = refilledAtNanos;
        }
    }

    private final int burst;
    private final long refillNanos;
    private final InstantSource clock;
    private final Map<EventTarget, Bucket> buckets;

    ObjectRateLimiter(int burst, Duration refillEvery, InstantSource clock, int maxObjects) {
        EventRecorderSettings.positive(burst, "burst");
        EventRecorderSettings.positive(refillEvery, "refillEvery");
        EventRecorderSettings.positive(maxObjects, "maxObjects");
        this.burst = burst;
        this.refillNanos = refillEvery.toNanos();
        this.clock = clock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<EventTarget, Bucket> eldest) {
                return size() > maxObjects;
            }
        };
    }

    /** Takes one token from the object's bucket; false when it is empty. */
    synchronized boolean tryAcquire(EventTarget target) {
        long now = nanos();
        Bucket bucket = buckets.computeIfAbsent(target, t -> new Bucket(burst, now));
        long elapsed = Math.max(0, now - bucket.refilledAtNanos);
        bucket.tokens = Math.min(burst, bucket.tokens + (double) elapsed / refillNanos);
        bucket.refilledAtNanos = now;
        if (bucket.tokens < 1) {
            return false;
        }
        bucket.tokens -= 1;
        return true;
    }

    private long nanos() {
        var instant = clock.instant();
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
