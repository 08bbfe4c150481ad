package io.podnuma.operator.status;

/** The status of a condition, as metav1.Condition spells it. */
public enum ConditionStatus {
    TRUE("True"),
    FALSE("False"),
    UNKNOWN("Unknown");

    private final String wire;

    ConditionStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
