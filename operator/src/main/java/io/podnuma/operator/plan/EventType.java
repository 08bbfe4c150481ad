package io.podnuma.operator.plan;

/** The two Event types Kubernetes knows. */
public enum EventType {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
