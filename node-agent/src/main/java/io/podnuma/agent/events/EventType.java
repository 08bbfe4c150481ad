package io.podnuma.agent.events;

/** The two Event types Kubernetes knows. */
public enum EventType {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String apiValue;

    EventType(String apiValue) {
        this.apiValue = apiValue;
    }

    /** The value of the Event's {@code type} field. */
    public String apiValue() {
        return apiValue;
    }
}
