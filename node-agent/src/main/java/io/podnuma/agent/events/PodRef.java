package io.podnuma.agent.events;

import java.util.Objects;

/**
 * A pod by namespace, name and UID. The UID tells two incarnations of a name apart: a pod deleted and recreated with
 * the same name is a different pod.
 */
public record PodRef(String namespace, String name, String uid) implements EventTarget {

    public PodRef {
        requireText(namespace, "namespace");
        requireText(name, "name");
        requireText(uid, "uid");
    }

    /** The engine's reference to the same pod. */
    public static PodRef of(io.podnuma.agent.engine.pod.PodRef pod) {
        return new PodRef(pod.namespace(), pod.name(), pod.uid());
    }

    static void requireText(String value, String field) {
        if (Objects.requireNonNull(value, field).isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
    }

    @Override
    public String kind() {
        return "Pod";
    }

    @Override
    public String toString() {
        return namespace + "/" + name + " (uid " + uid + ")";
    }
}
