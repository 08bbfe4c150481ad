package io.podnuma.testkit.soak;

/** The invariants the soak watches; any instant that breaks one fails the soak. */
public enum ViolationKind {
    /** A CPU is held exclusively by two containers of different pods (by their cgroups or their processes). */
    CPU_EXCLUSIVE_TO_TWO,
    /** A container with exclusive CPUs runs outside its set for longer than the documented window. */
    OUTSIDE_SET_TOO_LONG,
    /** A live pod's allocation is missing from one of the records (checkpoint, NumaNodeState, PodResources). */
    ALLOCATION_LOST
}
