package io.podnuma.agent.metrics;

/** The {@code method} label of the NRI metrics: a call the runtime made to the agent, or the agent's own. */
public enum NriCall {
    CONFIGURE("Configure"),
    SYNCHRONIZE("Synchronize"),
    CREATE_CONTAINER("CreateContainer"),
    UPDATE_CONTAINER("UpdateContainer"),
    STOP_CONTAINER("StopContainer"),
    /** Any other event (a container or pod removed, started, ...): answered, nothing decided. */
    EVENT("Event"),
    /** The agent's unsolicited call to the runtime: containers whose cpusets it changed. */
    UPDATE_CONTAINERS("UpdateContainers");

    private final String label;

    NriCall(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
