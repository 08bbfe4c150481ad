package io.podnuma.agent.runtime.loop;

import java.time.Duration;

/**
 * Retries failed cgroup writes: one retry queued at a time, the delay doubling from {@link #FIRST_RETRY_MILLIS} up to
 * the reconcile period while writes keep failing, and back to the first delay after a retry without failures.
 */
public final class RetryBackoff {

    /** A failed write is retried after this, doubling up to the reconcile period while it keeps failing. */
    public static final long FIRST_RETRY_MILLIS = 100;

    private final AgentLoop loop;
    private final long maxMillis;
    private Runnable pass = () -> {};
    private boolean scheduled;
    private boolean failedSince;
    private long delayMillis = FIRST_RETRY_MILLIS;

    public RetryBackoff(AgentLoop loop, Duration reconcilePeriod) {
        this.loop = loop;
        this.maxMillis = Math.max(FIRST_RETRY_MILLIS, reconcilePeriod.toMillis());
    }

    /** What a retry runs: the pass over every container. */
    public void retrying(Runnable value) {
        pass = value;
    }

    /** A write failed: the next retry is not a success even if it is the one that is queued already. */
    public void writeFailed() {
        failedSince = true;
    }

    /** The delay of the next retry, for the log. */
    public long delayMillis() {
        return delayMillis;
    }

    /** Queues a retry unless one is queued already. */
    public void schedule() {
        if (scheduled) {
            return;
        }
        scheduled = true;
        long delay = delayMillis;
        delayMillis = Math.min(delayMillis * 2, maxMillis);
        loop.schedule(
                "retry of failed cgroup writes",
                () -> {
                    scheduled = false;
                    failedSince = false;
                    pass.run();
                    if (!failedSince) {
                        delayMillis = FIRST_RETRY_MILLIS;
                    }
                },
                delay);
    }
}
