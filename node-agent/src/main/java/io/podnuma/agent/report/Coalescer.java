package io.podnuma.agent.report;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Hands values to a sink at most once per interval; values submitted in between replace each other, so a burst ends
 * in one call with the latest value. A sink failure keeps its value for another try one interval later, unless a
 * newer value arrived meanwhile.
 *
 * <p>The scheduler must run tasks one at a time (a single thread), so the sink is never called concurrently.
 */
final class Coalescer<T> {

    /** Runs a task after a delay. */
    interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    private final long intervalNanos;
    private final Scheduler scheduler;
    private final LongSupplier nanoClock;
    private final Consumer<T> sink;
    private final Consumer<RuntimeException> onFailure;

    private T pending;
    private boolean scheduled;
    private boolean running;
    private boolean everRun;
    private long nextAllowed;

    Coalescer(
            long intervalNanos,
            Scheduler scheduler,
            LongSupplier nanoClock,
            Consumer<T> sink,
            Consumer<RuntimeException> onFailure) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("interval must not be negative, got " + intervalNanos + " ns");
        }
        this.intervalNanos = intervalNanos;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
    }

    synchronized void submit(T value) {
        pending = Objects.requireNonNull(value, "value");
        scheduleIfIdle();
    }

    /** Nothing waiting and nothing being handed over. */
    synchronized boolean idle() {
        return pending == null && !scheduled && !running;
    }

    private void scheduleIfIdle() {
        if (scheduled || running) {
            return; // the scheduled or running drain picks the latest value up
        }
        scheduled = true;
        scheduler.schedule(this::drain, delay(nanoClock.getAsLong()));
    }

    private long delay(long now) {
        return everRun ? Math.max(0, nextAllowed - now) : 0;
    }

    private void drain() {
        T value;
        synchronized (this) {
            scheduled = false;
            long now = nanoClock.getAsLong();
            long wait = delay(now);
            if (wait > 0) {
                scheduled = true;
                scheduler.schedule(this::drain, wait);
                return;
            }
            value = pending;
            pending = null;
            if (value == null) {
                return;
            }
            running = true;
            everRun = true;
            nextAllowed = now + intervalNanos;
        }
        try {
            sink.accept(value);
        } catch (RuntimeException e) {
            synchronized (this) {
                if (pending == null) {
                    pending = value;
                }
            }
            onFailure.accept(e);
        } finally {
            synchronized (this) {
                running = false;
                if (pending != null) {
                    scheduleIfIdle();
                }
            }
        }
    }
}
