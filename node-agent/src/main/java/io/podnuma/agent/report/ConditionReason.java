package io.podnuma.agent.report;

import static io.podnuma.agent.report.ConditionType.DEGRADED;
import static io.podnuma.agent.report.ConditionType.DRIFT;
import static io.podnuma.agent.report.ConditionType.KUBELET_CONFLICT;
import static io.podnuma.agent.report.ConditionType.PARTITIONED;
import static io.podnuma.agent.report.ConditionType.READY;
import static io.podnuma.crds.v1alpha1.ConditionStatus.FALSE;
import static io.podnuma.crds.v1alpha1.ConditionStatus.TRUE;
import static io.podnuma.crds.v1alpha1.ConditionStatus.UNKNOWN;

import io.podnuma.crds.v1alpha1.ConditionStatus;

/**
 * Why a condition has its status. Each reason belongs to one condition type and one status, so a reason cannot be
 * stated on the wrong condition or with a status that contradicts it.
 */
public enum ConditionReason {
    SYNCED(READY, TRUE, "Synced"),
    POLICY_CONFLICT(DEGRADED, TRUE, "PolicyConflict"),
    AS_EXPECTED(DEGRADED, FALSE, "AsExpected"),
    DRIFT_REPAIRED(DRIFT, TRUE, "DriftRepaired"),
    NO_DRIFT(DRIFT, FALSE, "NoDrift"),
    KUBELET_MANAGER_ACTIVE(KUBELET_CONFLICT, TRUE, "KubeletManagerActive"),
    KUBELET_FILE_UNREADABLE(KUBELET_CONFLICT, UNKNOWN, "KubeletFileUnreadable"),
    KUBELET_MANAGERS_NONE(KUBELET_CONFLICT, FALSE, "KubeletManagersNone"),
    KUBELET_NOT_CHECKED(KUBELET_CONFLICT, FALSE, "NotChecked"),
    PARTITIONS_IN_FORCE(PARTITIONED, TRUE, "PartitionsInForce"),
    PARTITIONS_UNSUPPORTED(PARTITIONED, FALSE, "PartitionsUnsupported"),
    PARTITION_REFUSED(PARTITIONED, FALSE, "PartitionRefused");

    private final ConditionType type;
    private final ConditionStatus status;
    private final String wire;

    ConditionReason(ConditionType type, ConditionStatus status, String wire) {
        this.type = type;
        this.status = status;
        this.wire = wire;
    }

    /** The condition this reason is given on. */
    public ConditionType type() {
        return type;
    }

    /** The status the condition has for this reason. */
    public ConditionStatus status() {
        return status;
    }

    /** The reason as the condition carries it (one CamelCase word). */
    public String wire() {
        return wire;
    }
}
