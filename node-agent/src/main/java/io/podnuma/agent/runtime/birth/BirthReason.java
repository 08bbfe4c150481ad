package io.podnuma.agent.runtime.birth;

/** Why a container is created without a pin from the agent (the cgroup path pins it once its cgroup appears). */
public enum BirthReason {
    /** The agent has not loaded its checkpoint or listed its pods yet. */
    NOT_STARTED("the agent has not started deciding yet"),
    /** Rebuilding its record from the host, a kubelet conflict, or stopping: the agent writes no cpuset now. */
    NOT_WRITING("the agent writes no cpuset now (rebuilding its record, a kubelet conflict, or stopping)"),
    /** Every CPU the container should get is still held by a container whose write failed. */
    CPUS_HELD("its CPUs are still held by a container that could not give them up");

    private final String text;

    BirthReason(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }
}
