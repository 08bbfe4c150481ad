package io.podnuma.operator.status;

import static io.podnuma.crds.v1alpha1.ConditionStatus.FALSE;
import static io.podnuma.crds.v1alpha1.ConditionStatus.TRUE;
import static io.podnuma.operator.status.PolicyConditionType.CONFLICT;
import static io.podnuma.operator.status.PolicyConditionType.DEGRADED;
import static io.podnuma.operator.status.PolicyConditionType.PROGRESSING;
import static io.podnuma.operator.status.PolicyConditionType.READY;

import io.podnuma.crds.v1alpha1.ConditionStatus;

/**
 * Why a policy condition has its status. Each belongs to one condition type and one status, so a reason cannot be
 * given on the wrong condition. {@code Degraded=True} takes its reason from the failing nodes instead
 * ({@link FailureReason}).
 */
public enum ConditionReason implements Reason {
    ALL_NODES_READY(READY, TRUE, "AllNodesReady"),
    READY_ROLLOUT_IN_PROGRESS(READY, FALSE, "RolloutInProgress"),
    NODES_NOT_READY(READY, FALSE, "NodesNotReady"),
    NO_NODES_GOVERNED(READY, FALSE, "NoNodesGoverned"),

    DAEMON_SET_PENDING(PROGRESSING, TRUE, "DaemonSetPending"),
    ROLLOUT_IN_PROGRESS(PROGRESSING, TRUE, "RolloutInProgress"),
    ROLLOUT_COMPLETE(PROGRESSING, FALSE, "RolloutComplete"),

    NO_FAILING_NODES(DEGRADED, FALSE, "NoFailingNodes"),

    NODES_GOVERNED_BY_OTHERS(CONFLICT, TRUE, "NodesGovernedByOthers"),
    ALL_NODES_GOVERNED_BY_OTHERS(CONFLICT, TRUE, "AllNodesGovernedByOthers"),
    NO_CONFLICT(CONFLICT, FALSE, "NoConflict");

    private final PolicyConditionType type;
    private final ConditionStatus status;
    private final String wire;

    ConditionReason(PolicyConditionType type, ConditionStatus status, String wire) {
        this.type = type;
        this.status = status;
        this.wire = wire;
    }

    public PolicyConditionType type() {
        return type;
    }

    public ConditionStatus status() {
        return status;
    }

    @Override
    public String wire() {
        return wire;
    }
}
