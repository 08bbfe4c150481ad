package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.Event;
import java.util.Optional;

/** The NRI lifecycle events, numbered as upstream's {@code Event} enum (the subscription mask depends on it). */
public enum NriEvent {
    RUN_POD_SANDBOX(1),
    STOP_POD_SANDBOX(2),
    REMOVE_POD_SANDBOX(3),
    CREATE_CONTAINER(4),
    POST_CREATE_CONTAINER(5),
    START_CONTAINER(6),
    POST_START_CONTAINER(7),
    UPDATE_CONTAINER(8),
    POST_UPDATE_CONTAINER(9),
    STOP_CONTAINER(10),
    REMOVE_CONTAINER(11),
    /** From NRI v0.10. */
    UPDATE_POD_SANDBOX(12),
    /** From NRI v0.10. */
    POST_UPDATE_POD_SANDBOX(13),
    /** From NRI v0.10. */
    VALIDATE_CONTAINER_ADJUSTMENT(14);

    private final int number;

    NriEvent(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** Whether a runtime older than NRI v0.10 refuses a subscription that names this event. */
    public boolean needsNri010() {
        return number >= 12;
    }

    public static Optional<NriEvent> of(Event event) {
        for (NriEvent e : values()) {
            if (e.number == event.getNumber()) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
