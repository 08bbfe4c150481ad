package io.podnuma.agent.runtime.pin;

/**
 * The one place that says whether a cpuset may be written: a {@link WriteMode} and its transitions. A kubelet
 * conflict suspends the mode it interrupts and resumes it when the conflict ends. Owned by the loop thread (the
 * mode is read from other threads only to learn that the agent has halted).
 */
public final class WriteGate {

    private volatile WriteMode mode;
    /** The mode a kubelet conflict suspended; what the agent returns to when it ends. */
    private WriteMode suspended;

    /**
     * @param start {@link WriteMode#FOLLOWING} with a checkpoint to follow, {@link WriteMode#REBUILDING} without,
     *     {@link WriteMode#ACTIVE} for the parts of an agent that start after its full sync
     */
    public WriteGate(WriteMode start) {
        if (start != WriteMode.ACTIVE && start != WriteMode.REBUILDING && start != WriteMode.FOLLOWING) {
            throw new IllegalArgumentException("an agent starts FOLLOWING, REBUILDING or ACTIVE, not " + start);
        }
        this.mode = start;
    }

    public WriteMode mode() {
        return mode;
    }

    /** The checkpoint was missing or set aside: the host's cpusets are the record until the full sync. */
    public void rebuild() {
        transition(WriteMode.REBUILDING);
    }

    /** A checkpoint was loaded: until the full sync cpusets follow it, giving up only. */
    public void follow() {
        transition(WriteMode.FOLLOWING);
    }

    /** The full sync has read the host and decided: cpusets follow the node state from now on. */
    public void synced() {
        transition(WriteMode.ACTIVE);
    }

    /**
     * What the kubelet check says now.
     *
     * @return whether a conflict starts with this check (it is reported once, when it starts)
     */
    public boolean kubelet(CpusetOwner owner) {
        if (mode == WriteMode.HALTED || mode == WriteMode.RESTORING) {
            return false;
        }
        if (owner == CpusetOwner.KUBELET && mode != WriteMode.KUBELET_CONFLICT) {
            suspended = mode;
            mode = WriteMode.KUBELET_CONFLICT;
            return true;
        }
        if (owner == CpusetOwner.AGENT && mode == WriteMode.KUBELET_CONFLICT) {
            mode = suspended;
            suspended = null;
        }
        return false;
    }

    /** The node leaves podnuma; under a kubelet conflict nothing is written still. */
    public void restore() {
        transition(WriteMode.RESTORING);
    }

    /** The agent stops; nothing is written any more. */
    public void halt() {
        mode = WriteMode.HALTED;
        suspended = null;
    }

    /** Whether the agent may touch cpusets at all (the kubelet does not manage them, the agent has not stopped). */
    public boolean mayWrite() {
        return mode != WriteMode.KUBELET_CONFLICT && mode != WriteMode.HALTED;
    }

    /** Whether a cpuset may be written now: decisions are made and nothing stands in the way. */
    public boolean writes() {
        return mode == WriteMode.ACTIVE || mode == WriteMode.FOLLOWING || mode == WriteMode.RESTORING;
    }

    /** Whether a write may only take CPUs and memory nodes away ({@link WriteMode#FOLLOWING}). */
    public boolean givesUpOnly() {
        return mode == WriteMode.FOLLOWING;
    }

    /** Whether the full sync is still to come (with or without a checkpoint). */
    public boolean beforeFullSync() {
        return rebuilding()
                || mode == WriteMode.FOLLOWING
                || mode == WriteMode.KUBELET_CONFLICT && suspended == WriteMode.FOLLOWING;
    }

    /** Whether the host's cpusets are still the only record (also while a kubelet conflict interrupts that). */
    public boolean rebuilding() {
        return mode == WriteMode.REBUILDING || mode == WriteMode.KUBELET_CONFLICT && suspended == WriteMode.REBUILDING;
    }

    /** Whether CPUs are kept apart, or (restoring) every container gets everything. */
    public PinPlan.Mode planMode() {
        return mode == WriteMode.RESTORING || suspended == WriteMode.RESTORING
                ? PinPlan.Mode.RESTORE
                : PinPlan.Mode.KEEP_APART;
    }

    public boolean halted() {
        return mode == WriteMode.HALTED;
    }

    private void transition(WriteMode to) {
        if (mode == WriteMode.HALTED) {
            return;
        }
        if (mode == WriteMode.KUBELET_CONFLICT) {
            suspended = to;
        } else {
            mode = to;
        }
    }
}
