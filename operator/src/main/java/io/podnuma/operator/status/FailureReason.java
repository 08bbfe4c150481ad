package io.podnuma.operator.status;

/**
 * Why a node is listed in a policy's {@code failingNodes}, most severe first: a node with several problems is listed
 * with the first, and {@code Degraded} carries the first among all failing nodes.
 */
public enum FailureReason implements Reason {
    /** The kubelet runs a CPU, memory or topology manager of its own (or its files cannot be read): the agent writes nothing. */
    KUBELET_CONFLICT("KubeletConflict"),
    /**
     * The policy reserves CPUs the node does not have (what CEL cannot see: it knows no node), read from the
     * topology the node's agent reports; the agent refuses such a policy.
     */
    RESERVED_CPUS_NOT_ON_NODE("ReservedCpusNotOnNode"),
    /** No NumaNodeState, or its Ready condition is not True: the agent is not running or has not synced. */
    AGENT_NOT_READY("AgentNotReady"),
    /** The agent recently failed to write a container's cpuset or mems: that container is not pinned. */
    CPUSET_WRITE_FAILED("CpusetWriteFailed"),
    /** The rollout is complete but the node's agent reports another configuration or policy than the current one. */
    STALE_CONFIG("StaleConfig"),
    /** The agent's Degraded condition: the policy in force conflicts with what running pods hold. */
    RUNNING_PODS_CONFLICT("RunningPodsConflict"),
    /** The agent found cpusets changed behind its back (and wrote them back): something else writes them. */
    DRIFT("Drift"),
    /** The agent recently hit another error (its lastError). */
    AGENT_ERROR("AgentError"),
    /** The policy selects the node but another policy governs it. */
    POLICY_CONFLICT("PolicyConflict");

    private final String wire;

    FailureReason(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }
}
