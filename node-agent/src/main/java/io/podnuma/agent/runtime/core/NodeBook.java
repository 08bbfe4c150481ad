package io.podnuma.agent.runtime.core;

import io.podnuma.agent.engine.state.NodeState;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The node state as the loop holds it, and whether the first full sync is done. The state is read and replaced on
 * the loop thread only; whether the agent is synced is read from any thread (readiness).
 */
public final class NodeBook {

    private NodeState state;
    private volatile boolean synced;
    private boolean recovered;

    public NodeBook(NodeState initial) {
        this.state = Objects.requireNonNull(initial, "initial");
    }

    public NodeState state() {
        return state;
    }

    public void state(NodeState next) {
        state = Objects.requireNonNull(next, "next");
    }

    /** Whether the checkpoint has been read (or found missing): from then on the agent decides pins. */
    public boolean recovered() {
        return recovered;
    }

    public void markRecovered() {
        recovered = true;
    }

    /** Whether the first full sync has run: before it the checkpoint decides and nothing is admitted or released. */
    public boolean synced() {
        return synced;
    }

    public void markSynced() {
        synced = true;
    }

    /** @return false when the first full sync has not run within {@code timeout} */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!synced) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return true;
    }
}
