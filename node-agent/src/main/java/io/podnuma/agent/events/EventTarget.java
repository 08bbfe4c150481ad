package io.podnuma.agent.events;

/** The object an Event is about: a pod or the agent's Node. */
public sealed interface EventTarget permits PodTarget, NodeRef {

    /** The involved object's kind ({@code Pod} or {@code Node}). */
    String kind();

    /** The involved object's namespace; empty for the Node. */
    String namespace();

    String name();

    /** The UID written into {@code involvedObject.uid}, which {@code kubectl describe} matches on. */
    String uid();

    /**
     * Where the Event object lives: the pod's namespace, or {@code default} for the cluster-scoped Node (as the
     * kubelet does, so {@code kubectl describe node} finds it).
     */
    default String eventNamespace() {
        return namespace().isEmpty() ? "default" : namespace();
    }
}
