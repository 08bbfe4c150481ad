package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.metrics.AgentMetrics;
import java.time.Duration;
import java.util.Objects;

/**
 * Times one change of the node shared pool, from the decision that made it until every container running on the
 * node shared pool holds the new pool ({@code podnuma_shared_pool_propagation_seconds}). Owned by the loop thread.
 *
 * <p>A write that fails keeps the change open: it is recorded when a later pass (the retry) finds every container
 * holding the pool, so the figure includes the retries. A change that a newer one replaces before it has reached
 * every container is not recorded at all: only the newer one is, timed from its own decision. A decision that leaves
 * the pool as it was replaces nothing.
 */
public final class PoolPropagation {

    private final AgentMetrics metrics;

    /** The pool being propagated; null when every change so far has arrived (or was replaced). */
    private CpuSet awaited;

    private long decidedNanos;

    public PoolPropagation(AgentMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** A decision was taken at {@code nanos} ({@link System#nanoTime()}) that turned the pool {@code before} into {@code after}. */
    public void decided(CpuSet before, CpuSet after, long nanos) {
        if (before.equals(after)) {
            return;
        }
        awaited = after;
        decidedNanos = nanos;
    }

    /** Whether a change is still on its way; until it is, {@link #applied} needs to be told what the pool holders hold. */
    public boolean awaiting() {
        return awaited != null;
    }

    /**
     * A pass of writes ended at {@code nanos}.
     *
     * @param pool the node shared pool now; another pool than the awaited one means a decision this tracker was not
     *     told of replaced the change, which is then not recorded
     * @param held what each container that should run on the node shared pool holds now (empty if unknown)
     */
    public void applied(CpuSet pool, Iterable<CpuSet> held, long nanos) {
        if (awaited == null) {
            return;
        }
        if (!awaited.equals(pool)) {
            awaited = null;
            return;
        }
        for (CpuSet cpus : held) {
            if (!cpus.equals(pool)) {
                return;
            }
        }
        awaited = null;
        metrics.sharedPoolPropagated(Duration.ofNanos(Math.max(0, nanos - decidedNanos)));
    }
}
