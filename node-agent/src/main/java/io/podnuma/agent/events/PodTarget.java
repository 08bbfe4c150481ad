package io.podnuma.agent.events;

import io.podnuma.agent.engine.pod.PodRef;
import java.util.Objects;

/**
 * A pod as the subject of an Event: the engine's {@link PodRef}, whose UID tells two incarnations of a name apart (a
 * pod deleted and recreated with the same name is a different pod). An Event needs the namespace and name the engine
 * may leave empty, so they are required here.
 */
public record PodTarget(PodRef pod) implements EventTarget {

    public PodTarget {
        Objects.requireNonNull(pod, "pod");
        requireText(pod.namespace(), "namespace");
        requireText(pod.name(), "name");
        requireText(pod.uid(), "uid");
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
    public String namespace() {
        return pod.namespace();
    }

    @Override
    public String name() {
        return pod.name();
    }

    @Override
    public String uid() {
        return pod.uid();
    }

    @Override
    public String toString() {
        return pod.toString();
    }
}
