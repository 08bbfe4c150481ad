package io.podnuma.agent.runtime;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.events.ResizePending;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import java.util.List;
import java.util.Optional;

/** The agent's Events, resize conditions and evictions as lines ({@code pod ns/name Warning Reason: message}), in order. */
record RecordingEvents(List<String> lines) implements RuntimeEvents {
    @Override
    public void onPod(PodRef pod, EventType type, EventReason reason, String message) {
        lines.add("pod " + pod.namespace() + "/" + pod.name() + " " + type.apiValue() + " " + reason + ": " + message);
    }

    @Override
    public void onNode(EventType type, EventReason reason, String message) {
        lines.add("node " + type.apiValue() + " " + reason + ": " + message);
    }

    @Override
    public void resizePending(PodRef pod, Optional<ResizePending> pending) {
        lines.add("condition " + pod.namespace() + "/" + pod.name() + " "
                + pending.map(p -> "ResizePending " + p.cause()).orElse("ResizePending removed"));
    }

    @Override
    public void evict(PodRef pod, EventReason reason, String message) {
        lines.add("evict " + pod.namespace() + "/" + pod.name() + " " + reason);
    }
}
