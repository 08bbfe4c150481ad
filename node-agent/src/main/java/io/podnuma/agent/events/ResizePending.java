package io.podnuma.agent.events;

import java.util.Objects;

/**
 * Why a pod's resize waits: the agent cannot give the pod its new size in place, so the pod keeps what it holds.
 *
 * @param cause the engine's reason (an upstream admission error name, e.g. {@code TopologyAffinityError})
 * @param message what was asked, what the pod holds and what is free
 */
public record ResizePending(String cause, String message) {

    public ResizePending {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(message, "message");
    }
}
