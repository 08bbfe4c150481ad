package io.podnuma.agent.events;

import java.time.Duration;

/**
 * Tuning of {@link KubeEventRecorder}.
 *
 * @param queueCapacity events waiting for the worker; more are dropped and counted
 * @param aggregationWindow a repeat of the same object, type, reason and message within this time of the previous
 *     one updates the existing Event's count instead of creating a new Event
 * @param burst writes one object may cause at once (token bucket size)
 * @param refillEvery one more write allowed per object after this long, up to {@code burst}
 * @param maxAttempts tries per API write (first one included) before the event is dropped
 * @param initialBackoff wait after the first failed try, doubled after each further one
 * @param maxBackoff longest wait between tries
 * @param drainTimeout how long {@code close()} lets the worker finish queued events
 */
public record EventRecorderSettings(
        int queueCapacity,
        Duration aggregationWindow,
        int burst,
        Duration refillEvery,
        int maxAttempts,
        Duration initialBackoff,
        Duration maxBackoff,
        Duration drainTimeout) {

    /**
     * Queue of 1,000; 10-minute aggregation; per object a burst of 25 then one write per 5 minutes (the kubelet's
     * event spam filter); 4 tries with 200 ms, 400 ms, 800 ms backoff; 2 s drain.
     */
    public static EventRecorderSettings defaults() {
        return new EventRecorderSettings(
                1000,
                Duration.ofMinutes(10),
                25,
                Duration.ofMinutes(5),
                4,
                Duration.ofMillis(200),
                Duration.ofSeconds(5),
                Duration.ofSeconds(2));
    }

    public EventRecorderSettings {
        positive(queueCapacity, "queueCapacity");
        positive(burst, "burst");
        positive(maxAttempts, "maxAttempts");
        positive(aggregationWindow, "aggregationWindow");
        positive(refillEvery, "refillEvery");
        positive(initialBackoff, "initialBackoff");
        positive(maxBackoff, "maxBackoff");
        if (drainTimeout == null || drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must be zero or positive, got " + drainTimeout);
        }
    }

    public EventRecorderSettings withQueueCapacity(int value) {
        return new EventRecorderSettings(
                value, aggregationWindow, burst, refillEvery, maxAttempts, initialBackoff, maxBackoff, drainTimeout);
    }

    public EventRecorderSettings withRateLimit(int burstValue, Duration refillEveryValue) {
        return new EventRecorderSettings(
                queueCapacity,
                aggregationWindow,
                burstValue,
                refillEveryValue,
                maxAttempts,
                initialBackoff,
                maxBackoff,
                drainTimeout);
    }

    public EventRecorderSettings withRetries(int attempts, Duration initial, Duration max) {
        return new EventRecorderSettings(
                queueCapacity, aggregationWindow, burst, refillEvery, attempts, initial, max, drainTimeout);
    }

    public EventRecorderSettings withDrainTimeout(Duration value) {
        return new EventRecorderSettings(
                queueCapacity, aggregationWindow, burst, refillEvery, maxAttempts, initialBackoff, maxBackoff, value);
    }

    static void positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + value);
        }
    }

    static void positive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got " + value);
        }
    }
}
