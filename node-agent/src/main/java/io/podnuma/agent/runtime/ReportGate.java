package io.podnuma.agent.runtime;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Holds the agent's reports until it is ready, then hands on the last one held and every later one, in order.
 *
 * <p>Why: a start's first reports come from recovery and the first full sync, while the agent is not yet ready.
 * Rendering and writing them (a second API connection, JSON binding of the node's state) ran beside the start on the
 * one CPU the agent may have on a busy node, and only delayed ready; the report handed on at ready replaces them.
 *
 * @param <T> the report
 */
final class ReportGate<T> implements Consumer<T> {

    private final Consumer<T> downstream;
    private T held;
    private boolean open;

    ReportGate(Consumer<T> downstream) {
        this.downstream = Objects.requireNonNull(downstream, "downstream");
    }

    /** Handed on at once when open, else kept in place of the report held before. */
    @Override
    public synchronized void accept(T report) {
        Objects.requireNonNull(report, "report");
        if (open) {
            downstream.accept(report);
        } else {
            held = report;
        }
    }

    /**
     * Hands on the report held, if any; from here on every report goes straight through. Under the lock, so a report
     * accepted meanwhile cannot overtake the older one held. Opening twice does nothing more.
     */
    synchronized void open() {
        if (open) {
            return;
        }
        open = true;
        T last = held;
        held = null;
        if (last != null) {
            downstream.accept(last);
        }
    }
}
