package io.podnuma.agent.health;

import io.podnuma.agent.http.Response;
import io.podnuma.agent.http.Route;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Liveness and readiness of the agent. Alive as soon as it serves; ready only after the runtime's first full
 * sync ({@link #markReady()}), so a restarted agent takes no new pods before it has rebuilt its state.
 */
public final class Readiness {

    static final String NOT_READY_REASON = "not ready: the first full sync of pods and cgroups has not finished\n";

    private final AtomicBoolean ready = new AtomicBoolean();

    /** Called once the first full sync is done; stays ready from then on. */
    public void markReady() {
        ready.set(true);
    }

    public boolean isReady() {
        return ready.get();
    }

    /** {@code /healthz}: 200 while the process can answer. */
    public Route healthz() {
        return () -> Response.text(200, "ok\n");
    }

    /** {@code /readyz}: 200 after {@link #markReady()}, 503 with the reason before. */
    public Route readyz() {
        return () -> ready.get() ? Response.text(200, "ready\n") : Response.text(503, NOT_READY_REASON);
    }
}
