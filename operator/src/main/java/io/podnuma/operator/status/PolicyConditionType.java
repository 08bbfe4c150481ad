package io.podnuma.operator.status;

import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;

/** The conditions on a policy's status, in the order the status lists them. */
public enum PolicyConditionType {
    /** Every governed node's agent is ready on the current configuration and the rollout is complete. */
    READY(NumaResourcePolicyStatus.CONDITION_READY),
    /** The agent DaemonSet is rolling out. */
    PROGRESSING(NumaResourcePolicyStatus.CONDITION_PROGRESSING),
    /** Some governed node fails (see failingNodes). */
    DEGRADED(NumaResourcePolicyStatus.CONDITION_DEGRADED),
    /** Some nodes the policy selects are governed by another policy. */
    CONFLICT(NumaResourcePolicyStatus.CONDITION_CONFLICT);

    private final String wire;

    PolicyConditionType(String wire) {
        this.wire = wire;
    }

    /** The type as the condition carries it ({@code kubectl wait --for=condition=Ready}). */
    public String wire() {
        return wire;
    }
}
