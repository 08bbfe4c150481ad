package io.podnuma.agent.runtime.pin;

/** Whether, and how, the agent may write cpusets now ({@link WriteGate}). */
public enum WriteMode {
    /**
     * No trustworthy checkpoint (none, or set aside): until the full sync the cpusets on the host are the only record
     * of who held what, so nothing is written, and the full sync first places each pod on the CPUs its containers
     * hold where that is still a valid placement.
     */
    REBUILDING,
    /**
     * A checkpoint, before the first full sync: cpusets follow it, but a container only gives CPUs and memory nodes
     * up, never gains any. The checkpoint may be older than what the last agent decided (its writes failed, a full
     * or read-only state directory, and then it crashed): a pod it does not know may hold exclusive CPUs that it
     * counts as shared, and widening the shared containers onto them would take them from that pod. The full sync
     * then learns who the unknown pods are and first tries each on the CPUs its containers hold.
     */
    FOLLOWING,
    /** Cpusets follow the node state; CPUs a container failed to give up are kept from the others. */
    ACTIVE,
    /** The kubelet manages cpusets here (a CPU, memory or topology manager policy): podnuma must not fight it. */
    KUBELET_CONFLICT,
    /** The node leaves podnuma: every container gets everything back, nothing is exclusive or kept apart. */
    RESTORING,
    /** The agent has stopped: tasks still queued must not write (they would undo a restore). */
    HALTED
}
