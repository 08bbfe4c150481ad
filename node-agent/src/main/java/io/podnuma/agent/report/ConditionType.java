package io.podnuma.agent.report;

import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;

/** The type of a condition on the agent's NumaNodeState: one per question the agent answers about itself. */
public enum ConditionType {
    /** The pods were listed and every container cgroup reconciled. */
    READY(NumaNodeStateStatus.CONDITION_READY),
    /** The policy in force conflicts with what running pods hold. */
    DEGRADED("Degraded"),
    /** Someone else rewrote container cpusets (and the agent wrote them back). */
    DRIFT(NumaNodeStateStatus.CONDITION_DRIFT),
    /** The kubelet runs a resource manager policy of its own, so the agent writes nothing. */
    KUBELET_CONFLICT(NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT),
    /** {@code cpuManager.partition} asks for cpuset partitions: whether every exclusive slice is one. */
    PARTITIONED("Partitioned");

    private final String wire;

    ConditionType(String wire) {
        this.wire = wire;
    }

    /** The type as the condition carries it: tools and {@code kubectl wait --for=condition=} match on it. */
    public String wire() {
        return wire;
    }
}
