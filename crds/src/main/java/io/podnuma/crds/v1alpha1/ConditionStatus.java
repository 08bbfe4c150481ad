package io.podnuma.crds.v1alpha1;

/**
 * The status of a condition ({@code metav1.Condition.status}): the three values Kubernetes allows. The agent's
 * NumaNodeState conditions and the operator's NumaResourcePolicy conditions both carry it.
 */
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
