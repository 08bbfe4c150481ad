package io.podnuma.agent.health;

import io.podnuma.agent.http.Response;
import io.podnuma.agent.http.Route;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Liveness, start and readiness of the agent. Alive as soon as it serves; ready only after the runtime's first full
 * sync ({@link #markReady()}), so a restarted agent takes no new pods before it has rebuilt its state.
 *
 * <p>Started ({@code /startupz}) once ready, or once it has served for the start grace without being ready: the
 * kubelet runs a pod's readiness probe at once when its startup probe succeeds, so a startup probe that waits for
 * readiness lets the readiness probe run seldom (each probe is a connection and a request on every node, all the
 * time) without delaying Ready. The grace keeps an agent that cannot sync (the API server away) from being restarted
 * by its startup probe: it pins from its checkpoint meanwhile.
 */
public final class Readiness {

    static final String NOT_READY_REASON = "not ready: the first full sync of pods and cgroups has not finished\n";
    static final String NOT_STARTED_REASON =
            "not started: the first full sync of pods and cgroups has not finished and the start grace has not passed\n";

    /** How long a start may take before the agent counts as started anyway; within the startup probe's 60 s. */
    public static final Duration START_GRACE = Duration.ofSeconds(30);

    private final AtomicBoolean ready = new AtomicBoolean();
    private final LongSupplier nanoClock;
    private final long startedNanos;
    private final long graceNanos;

    public Readiness() {
        this(System::nanoTime, START_GRACE);
    }

    /** @param nanoClock a monotonic clock; the grace counts from this construction */
    Readiness(LongSupplier nanoClock, Duration grace) {
        this.nanoClock = nanoClock;
        this.startedNanos = nanoClock.getAsLong();
        this.graceNanos = grace.toNanos();
    }

    /** Called once the first full sync is done; stays ready from then on. */
    public void markReady() {
        ready.set(true);
    }

    public boolean isReady() {
        return ready.get();
    }

    /** Ready, or the start grace has passed. */
    public boolean isStarted() {
        return ready.get() || nanoClock.getAsLong() - startedNanos >= graceNanos;
    }

    /** {@code /healthz}: 200 while the process can answer. */
    public Route healthz() {
        return () -> Response.text(200, "ok\n");
    }

    /** {@code /startupz}: 200 once {@link #isStarted()}, 503 with the reason before. */
    public Route startupz() {
        return () -> isStarted() ? Response.text(200, "started\n") : Response.text(503, NOT_STARTED_REASON);
    }

    /** {@code /readyz}: 200 after {@link #markReady()}, 503 with the reason before. */
    public Route readyz() {
        return () -> ready.get() ? Response.text(200, "ready\n") : Response.text(503, NOT_READY_REASON);
    }
}
