package io.podnuma.agent.report;

/** The status of a condition: the three values Kubernetes allows. */
public enum ConditionStatus {
    TRUE("True"),
    FALSE("False"),
    UNKNOWN("Unknown");

    private final String wire;

    ConditionStatus(String wire) {
        this.wire = wire;
    }

    /** The status as the condition carries it. */
    public String wire() {
        return wire;
    }
}
