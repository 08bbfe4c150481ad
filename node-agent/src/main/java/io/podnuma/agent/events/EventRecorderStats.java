package io.podnuma.agent.events;

/**
 * What {@link KubeEventRecorder} did so far.
 *
 * @param created Events created
 * @param updated repeats folded into an existing Event (count and lastTimestamp updated)
 * @param rateLimited dropped because their object used up its token bucket
 * @param queueFull dropped because the queue was full
 * @param failed dropped after the API refused them or all tries failed
 * @param discarded dropped because the recorder was closed, or the call lacked a target, type or reason
 */
public record EventRecorderStats(
        long created, long updated, long rateLimited, long queueFull, long failed, long discarded) {

    /** Every event dropped for any reason. */
    public long dropped() {
        return rateLimited + queueFull + failed + discarded;
    }
}
