package io.podnuma.agent.report;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one object from any thread without blocking: at most one hand-over to the writer per interval, the latest
 * value wins, and the writer itself decides whether anything goes to the API server (it skips unchanged renderings).
 * A writer failure is counted, kept as the last failure and retried one interval later unless a newer value came.
 *
 * @param <T> the rendered object
 */
public final class CoalescingPublisher<T> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CoalescingPublisher.class);

    private final String name;
    private final ScheduledExecutorService executor;
    private final Coalescer<T> coalescer;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong unchanged = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();

    /**
     * @param name what is published, for the thread name and log lines (e.g. {@code numanodestate})
     * @param writer called on one thread only; returns what it did or throws
     */
    public CoalescingPublisher(String name, Function<T, WriteOutcome> writer, Duration minInterval) {
        this.name = Objects.requireNonNull(name, "name");
        Objects.requireNonNull(writer, "writer");
        if (minInterval.isNegative() || minInterval.isZero()) {
            // A failed write is retried one interval later: zero would retry in a tight loop.
            throw new IllegalArgumentException("minInterval must be positive, got " + minInterval);
        }
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-publisher");
            t.setDaemon(true);
            return t;
        });
        this.coalescer = new Coalescer<>(
                minInterval.toNanos(),
                (task, delayNanos) -> executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS),
                System::nanoTime,
                value -> count(writer.apply(value)),
                e -> {
                    failures.incrementAndGet();
                    lastFailure.set(e);
                    LOG.warn("{}: {}", name, e.getMessage());
                });
    }

    private void count(WriteOutcome outcome) {
        switch (outcome) {
            case WRITTEN -> writes.incrementAndGet();
            case UNCHANGED -> unchanged.incrementAndGet();
            case SKIPPED -> skipped.incrementAndGet();
        }
    }

    public void publish(T desired) {
        coalescer.submit(desired);
    }

    /** Waits until every published value has been handed to the writer; false on timeout. */
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

    /** Hand-overs the writer declined without a request because its target is unavailable. */
    public long skipped() {
        return skipped.get();
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

    @Override
    public String toString() {
        return name + " publisher";
    }
}
