package io.podnuma.agent.runtime;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventSink;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.events.NodeRef;
import io.podnuma.agent.events.PodEvictor;
import io.podnuma.agent.events.PodResizeConditions;
import io.podnuma.agent.events.PodTarget;
import io.podnuma.agent.events.ResizePending;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import java.util.Optional;

/** {@link RuntimeEvents} as Kubernetes Events (on the pod or the Node), pod conditions and evictions through the Eviction API. */
public final class KubeRuntimeEvents implements RuntimeEvents {

    private final EventSink sink;
    private final PodEvictor evictor;
    private final PodResizeConditions conditions;
    private final NodeRef node;

    public KubeRuntimeEvents(EventSink sink, PodEvictor evictor, PodResizeConditions conditions, String nodeName) {
        this.sink = sink;
        this.evictor = evictor;
        this.conditions = conditions;
        this.node = new NodeRef(nodeName);
    }

    @Override
    public void onPod(PodRef pod, EventType type, EventReason reason, String message) {
        sink.record(new PodTarget(pod), type, reason, message);
    }

    @Override
    public void onNode(EventType type, EventReason reason, String message) {
        sink.record(node, type, reason, message);
    }

    @Override
    public void resizePending(PodRef pod, Optional<ResizePending> pending) {
        conditions.set(pod, pending);
    }

    @Override
    public void evict(PodRef pod, EventReason reason, String message) {
        evictor.evict(pod, reason + ": " + message);
    }
}
