package io.podnuma.agent.report;

import io.podnuma.crds.v1alpha1.NumaNodeState;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the node's {@code NumaNodeState} from any thread without blocking: at most one write per interval, the
 * latest state wins, and an unchanged rendering is not written at all (see {@link NodeStateWriter}).
 */
public final class NodeStatePublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeStatePublisher.class);

    private final ScheduledExecutorService executor;
    private final Coalescer<NumaNodeState> coalescer;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong unchanged = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();

    public NodeStatePublisher(NodeStateWriter writer, Duration minInterval) {
        if (minInterval.isNegative() || minInterval.isZero()) {
            // A failed write is retried one interval later: zero would retry in a tight loop.
            throw new IllegalArgumentException("minInterval must be positive, got " + minInterval);
        }
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "numanodestate-publisher");
            t.setDaemon(true);
            return t;
        });
        this.coalescer = new Coalescer<>(
                minInterval.toNanos(),
                (task, delayNanos) -> executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS),
                System::nanoTime,
                state -> {
                    if (writer.write(state) == WriteOutcome.WRITTEN) {
                        writes.incrementAndGet();
                    } else {
                        unchanged.incrementAndGet();
                    }
                },
                e -> {
                    failures.incrementAndGet();
                    lastFailure.set(e);
                    LOG.warn("{}; retrying", e.getMessage());
                });
    }

    public void publish(NumaNodeState desired) {
        coalescer.submit(desired);
    }

    /** Waits until every published state has been handed to the writer; false on timeout. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!coalescer.idle()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Requests that changed the object. */
    public long writes() {
        return writes.get();
    }

    /** Hand-overs that found the object unchanged and made no request. */
    public long unchanged() {
        return unchanged.get();
    }

    public long failures() {
        return failures.get();
    }

    public Optional<RuntimeException> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
