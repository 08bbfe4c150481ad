package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.ResizeResult;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An admitted pod whose budget changed in place ({@code resize} subresource): the engine's answer
 * ({@link NodeAllocator#resize}) becomes the node state, an Event on the pod and a log line. A resize that cannot be
 * done in place leaves the pod with what it holds.
 */
public final class Resizes {

    private static final Logger LOG = LoggerFactory.getLogger(Resizes.class);

    private final NodeAllocator allocator;
    private final RuntimeEvents events;

    public Resizes(NodeAllocator allocator, RuntimeEvents events) {
        this.allocator = allocator;
        this.events = events;
    }

    /** The node state after {@code r}'s pod asked for its current spec; the same state unless it was resized. */
    public NodeState resize(NodeState state, PodRecord r) {
        return switch (allocator.resize(state, r.pod().orElseThrow())) {
            case ResizeResult.Resized x -> {
                String message = "budget "
                        + (x.pod().bubble().size()
                                - x.added().size()
                                + x.returned().size())
                        + " → " + x.pod().bubble().size() + " CPUs in place: "
                        + (x.added().isEmpty() ? "gave back " + x.returned() : "added " + x.added())
                        + ", kept the rest; now " + x.pod().bubble();
                LOG.info("pod {} resized: {}", r.ref(), message);
                events.onPod(r.ref(), EventType.NORMAL, EventReason.RESOURCES_RESIZED, message);
                yield x.state();
            }
            case ResizeResult.Infeasible x -> {
                LOG.warn(
                        "pod {} cannot be resized in place: {}: {}",
                        r.ref(),
                        x.reason().wire(),
                        x.message());
                events.onPod(
                        r.ref(),
                        EventType.WARNING,
                        EventReason.RESIZE_INFEASIBLE,
                        x.reason().wire() + ": " + x.message() + "; it keeps its CPUs and memory");
                yield state;
            }
            case ResizeResult.Unchanged u -> state;
            case ResizeResult.NotHeld n -> state;
        };
    }
}
