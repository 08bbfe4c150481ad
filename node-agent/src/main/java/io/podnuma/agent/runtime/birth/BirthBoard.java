package io.podnuma.agent.runtime.birth;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.host.HostBook;
import io.podnuma.agent.runtime.pin.WriteGate;

/**
 * Where the runtime's creation hook (NRI) reads the agent's decisions from, on its own threads and without waiting
 * for the loop: the loop publishes a {@link BirthView} after each task, so a container is never born onto CPUs whose
 * hand-over is still under way in the loop.
 */
public final class BirthBoard {

    private final BirthPins pins;
    private volatile BirthView view;

    public BirthBoard(BirthPins pins) {
        this.pins = pins;
    }

    /**
     * On the loop thread: what the loop's books say now.
     *
     * @param runtimePending CPUs the runtime's unanswered updates may still put into containers that must not keep them
     */
    public void publish(NodeState state, WriteGate gate, HostBook host, CpuSet runtimePending, boolean started) {
        CpuSet.Builder blocked = CpuSet.builder();
        host.stale().values().forEach(blocked::addAll);
        blocked.addAll(runtimePending);
        view = started ? new BirthView(state, gate.writes(), blocked.build()) : null;
    }

    /** From any thread: the pin of a container about to be created. */
    public BirthDecision decide(String podUid, String container) {
        BirthView v = view;
        return v == null ? new BirthDecision.Unpinned(BirthReason.NOT_STARTED) : pins.decide(v, podUid, container);
    }
}
