package io.podnuma.agent.runtime;

import io.podnuma.agent.engine.pod.PodRef;

/** What the runtime tells the cluster besides state: Events on pods and on the node, and evictions. */
public interface RuntimeEvents {

    void onPod(PodRef pod, boolean warning, String reason, String message);

    void onNode(boolean warning, String reason, String message);

    /** Asks the API server to evict a pod the engine refused ({@code admission: Evict}). */
    void evict(PodRef pod, String reason, String message);
}
