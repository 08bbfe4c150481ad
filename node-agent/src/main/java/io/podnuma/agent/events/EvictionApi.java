package io.podnuma.agent.events;

import io.podnuma.agent.engine.pod.PodRef;
import java.util.Optional;

/** The calls an eviction needs. Transport failures surface as runtime exceptions. */
interface EvictionApi {

    /** The pod now holding a name. */
    record LivePod(String uid, boolean terminating) {}

    /** The API server's answer to an Eviction: HTTP code and the Status message (with its causes) when refused. */
    record Answer(int code, String message) {}

    Optional<LivePod> get(String namespace, String name);

    /** POSTs a policy/v1 Eviction for the pod with a UID precondition, so a pod recreated meanwhile is not hit. */
    Answer evict(PodRef pod);
}
