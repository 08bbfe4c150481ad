package io.podnuma.testkit.soak;

/**
 * The faults the soaks inject (the agent's and the operator's; each driver offers the kinds it has an injector for), each with its weight in the draw (cheap faults more often) and whether the agent is
 * down afterwards until the soak starts it again.
 */
public enum FaultKind {
    /** SIGKILL at a random moment of the churn. */
    AGENT_KILL9(10),
    /** SIGKILL within the first moments after a start (before or around the checkpoint read). */
    AGENT_KILL9_AT_START(4),
    /** SIGKILL while the full sync runs (right after the pod list arrives: the process is alive, not yet ready). */
    AGENT_KILL9_DURING_SYNC(4),
    /** SIGKILL at the N-th cgroup write of an incarnation (the in-process driver counts them). */
    AGENT_KILL9_AT_CGROUP_WRITE(6),
    /** SIGKILL in a checkpoint write after the temp file is written and fsynced, before its rename. */
    AGENT_KILL9_BEFORE_RENAME(4),
    /** SIGKILL right after a checkpoint write, before the cgroup writes that follow it. */
    AGENT_KILL9_AFTER_CHECKPOINT(4),
    /** SIGKILL while the shutdown hook runs (SIGTERM, then SIGKILL before it ends). */
    AGENT_KILL9_DURING_SHUTDOWN(3),
    /** SIGTERM (a rolling update: the label stays, the pins stay), then a new start. */
    AGENT_SIGTERM(5),
    /** SIGKILL of the operator replica that leads (holds the Lease); a standby takes over once the Lease expires. */
    OPERATOR_KILL9(3),
    /** SIGTERM of the operator replica that leads: it stops reconciling and gives the Lease up. */
    OPERATOR_SIGTERM(2),
    /** SIGKILL of an operator replica that stands by (nothing may change: it neither leads nor writes). */
    OPERATOR_FOLLOWER_KILL9(1),
    /** kube-apiserver stopped for a moment and started again. */
    API_SERVER_RESTART(1),
    /**
     * kube-apiserver stopped for longer than the operator's Lease duration, then started again: the leader cannot renew
     * and fences, and the replica that acquires once it is back does so with an attempt that waited through the outage.
     */
    API_SERVER_OUTAGE(1),
    /** etcd stopped for a moment and started again. */
    ETCD_RESTART(1),
    /** The node's containerd stopped (SIGTERM; containers run on in their shims) and started again. */
    CONTAINERD_RESTART(2),
    /** The node's kubelet stopped (SIGTERM; containers run on) and started again with the same flags. */
    KUBELET_RESTART(2),
    /** cgroup writes fail with EBUSY for a moment. */
    CGROUP_WRITE_EBUSY(6),
    /** cgroup writes fail with ENOSPC for a moment. */
    CGROUP_WRITE_ENOSPC(4),
    /** cgroup writes fail with EACCES for a moment. */
    CGROUP_WRITE_EACCES(4),
    /** The state directory read-only for a moment (checkpoint writes fail). */
    STATE_DIR_READ_ONLY(3),
    /** The state directory full for a moment (checkpoint writes fail with ENOSPC). */
    STATE_DIR_FULL(3),
    /** The checkpoint truncated (as by a write cut short) while the agent is down, then a start. */
    CHECKPOINT_TRUNCATED(3),
    /** Every container recreated with new IDs while the agent is down, the checkpoint kept. */
    NODE_REBOOT(2),
    /** The machine changed between two runs (a CPU offlined or back online): the checkpoint's topology differs. */
    TOPOLOGY_CHANGE(2),
    /**
     * The node's {@code podnuma.io/policy} label removed (the node leaves podnuma). The agent's driver: SIGTERM, whose
     * restore (every container back to every CPU) is cut by SIGKILL, then the label back and a new start. The
     * operator's: the label removed by hand and the leader killed (-9) while it puts it back.
     */
    NODE_LABEL_REMOVED(2),
    /**
     * A NumaResourcePolicy deleted while an agent still reports it (its restore under way): the leader killed (-9)
     * during the cleanup that waits for that restore; the next leader finishes it.
     */
    POLICY_DELETED(2);

    private final int weight;

    FaultKind(int weight) {
        this.weight = weight;
    }

    public int weight() {
        return weight;
    }

    /**
     * Whether the fault may legitimately change where a pinned pod that outlives it is (its CPUs, memory nodes, or
     * whether it is pinned at all): a checkpoint set aside (truncated) makes the agent admit its pods afresh, a new
     * topology may not fit them, and a node that left podnuma had every pin released (or half of them, when the
     * restore was cut) and re-admits its pods when it comes back. Every other fault keeps them exactly
     * (node-agent/docs/behaviour.md, "Fault soak").
     */
    public boolean mayMovePins() {
        return switch (this) {
            case CHECKPOINT_TRUNCATED, TOPOLOGY_CHANGE, NODE_LABEL_REMOVED, POLICY_DELETED -> true;
            default -> false;
        };
    }
}
