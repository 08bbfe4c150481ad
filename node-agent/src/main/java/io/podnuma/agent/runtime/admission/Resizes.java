package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.ResizeResult;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.events.ResizePending;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.pods.PodRecord;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An admitted pod resized in place (its budget, or its containers' whole CPUs, through the {@code resize}
 * subresource): the engine's answer ({@link NodeAllocator#resize}) becomes the node state, an Event on the pod and a
 * log line. A resize that cannot be done in place leaves the pod with what it holds and sets its
 * {@code podnuma.io/ResizePending} condition, until the pod holds what it asks for; the same refusal again (the pod
 * changed in another way) is not said twice.
 */
public final class Resizes {

    private static final Logger LOG = LoggerFactory.getLogger(Resizes.class);

    private final NodeAllocator allocator;
    private final RuntimeEvents events;
    private final AgentMetrics metrics;
    /** The pods whose resize condition is set, and its message: the loop thread's only. */
    private final Map<String, String> pending = new HashMap<>();

    public Resizes(NodeAllocator allocator, RuntimeEvents events, AgentMetrics metrics) {
        this.allocator = allocator;
        this.events = events;
        this.metrics = metrics;
    }

    /** The pod went: nothing of it to remember. */
    public void forget(String uid) {
        pending.remove(uid);
    }

    /** The pod holds what it asks for: its condition goes (sent also when not known to be set, after a restart). */
    private void settled(PodRecord r) {
        pending.remove(r.ref().uid());
        events.resizePending(r.ref(), Optional.empty());
    }

    /** The node state after {@code r}'s pod asked for its current spec; the same state unless it was resized. */
    public NodeState resize(NodeState state, PodRecord r) {
        return switch (allocator.resize(state, r.pod().orElseThrow())) {
            case ResizeResult.Resized x -> {
                String message = x.change() + " in place: "
                        + (x.added().isEmpty() ? "gave back " + x.returned() : "added " + x.added())
                        + ", kept the rest; now " + x.pod().exclusiveCpus();
                LOG.info("pod {} resized: {}", r.ref(), message);
                events.onPod(r.ref(), EventType.NORMAL, EventReason.RESOURCES_RESIZED, message);
                metrics.podResized(AgentMetrics.ResizeOutcome.RESIZED);
                settled(r);
                yield x.state();
            }
            case ResizeResult.Infeasible x -> {
                if (x.message().equals(pending.get(r.ref().uid()))) {
                    yield state;
                }
                LOG.warn(
                        "pod {} cannot be resized in place: {}: {}",
                        r.ref(),
                        x.reason().wire(),
                        x.message());
                events.onPod(
                        r.ref(),
                        EventType.WARNING,
                        EventReason.RESIZE_INFEASIBLE,
                        x.reason().wire() + ": " + x.message());
                metrics.podResized(AgentMetrics.ResizeOutcome.INFEASIBLE);
                pending.put(r.ref().uid(), x.message());
                events.resizePending(
                        r.ref(), Optional.of(new ResizePending(x.reason().wire(), x.message())));
                yield state;
            }
            case ResizeResult.Unchanged u -> {
                if (pending.containsKey(r.ref().uid())) {
                    settled(r);
                }
                yield state;
            }
            case ResizeResult.NotHeld n -> state;
        };
    }
}
