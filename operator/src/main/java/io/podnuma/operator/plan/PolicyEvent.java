package io.podnuma.operator.plan;

import java.util.Objects;

/** One Event to record on a policy. */
public record PolicyEvent(EventReason reason, String message) {

    /** The API's limit on an Event message. */
    static final int MAX_MESSAGE = 1024;

    public PolicyEvent {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE - 1) + "…";
        }
    }

    public EventType type() {
        return reason.type();
    }
}
