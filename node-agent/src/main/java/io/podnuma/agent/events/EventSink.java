package io.podnuma.agent.events;

/**
 * Where the agent's runtime reports what happened to a pod or to its node. Implementations return at once and never
 * throw: reporting must not slow down or break pinning.
 */
public interface EventSink {

    /**
     * Records an Event about {@code target}. Repeats of the same target, reason and message may be folded into one
     * Event with a count; events may be dropped under load (the implementation counts them).
     */
    void record(EventTarget target, EventType type, EventReason reason, String message);

    default void normal(EventTarget target, EventReason reason, String message) {
        record(target, EventType.NORMAL, reason, message);
    }

    default void warning(EventTarget target, EventReason reason, String message) {
        record(target, EventType.WARNING, reason, message);
    }
}
