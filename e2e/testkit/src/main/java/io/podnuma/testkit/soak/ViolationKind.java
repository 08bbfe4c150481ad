package io.podnuma.testkit.soak;

/** The invariants the soaks watch (the agent's, then the operator's); any instant that breaks one fails the soak. */
public enum ViolationKind {
    /** A CPU is held exclusively by two containers of different pods (by their cgroups or their processes). */
    CPU_EXCLUSIVE_TO_TWO,
    /** A container with exclusive CPUs runs outside its set for longer than the documented window. */
    OUTSIDE_SET_TOO_LONG,
    /** A live pod's allocation is missing from one of the records (checkpoint, NumaNodeState, PodResources). */
    ALLOCATION_LOST,
    /** Once converged, a record places a container (its CPUs, exclusive CPUs, memory nodes) otherwise than the checkpoint. */
    PLACEMENT_DISAGREES,
    /**
     * A pod pinned before a fault and alive after it holds other CPUs or memory nodes (or none) once converged, after a
     * fault that may not move pins ({@link FaultKind#mayMovePins()}).
     */
    PLACEMENT_CHANGED,
    /**
     * After the node left podnuma (its restore finished or cut by a crash), a container is neither where it was pinned
     * nor on every CPU, or the checkpoint is there after a finished restore or gone after a cut one.
     */
    RESTORE_LEFT_OTHERWISE,
    /** A CPU outside the reserved set is the whole cpuset of containers of two pods at once, as their cgroups say. */
    CPU_HELD_BY_TWO,
    /** Two operator replicas each say they lead ({@code podnuma_operator_leader} 1) at one instant. */
    TWO_LEADERS,
    /** An operator replica says it leads while the Lease names another holder. */
    LEADER_WITHOUT_LEASE,
    /** An operator replica wrote (reconciled, or made an Event) at a time it did not hold the Lease. */
    WRITE_WITHOUT_LEASE,
    /**
     * An operator replica took the Lease from a holder that may still have led: less than {@code renewDeadline} after
     * that holder's last renewal, which it had not given up.
     */
    EARLY_TAKEOVER,
    /** After a fault the cluster did not reach the state the objects ask for within the bound. */
    NOT_CONVERGED
}
