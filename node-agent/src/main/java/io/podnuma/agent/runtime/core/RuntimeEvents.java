package io.podnuma.agent.runtime.core;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.events.ResizePending;
import java.util.Optional;

/** What the runtime tells the cluster besides state: Events on pods and on the node, pod conditions, and evictions. */
public interface RuntimeEvents {

    void onPod(PodRef pod, EventType type, EventReason reason, String message);

    void onNode(EventType type, EventReason reason, String message);

    /**
     * Sets ({@code pending} present) or removes the pod's {@code podnuma.io/ResizePending} condition: a resize the
     * agent cannot give in place.
     */
    void resizePending(PodRef pod, Optional<ResizePending> pending);

    /** Asks the API server to evict a pod the engine refused ({@code admission: Evict}). */
    void evict(PodRef pod, EventReason reason, String message);
}
