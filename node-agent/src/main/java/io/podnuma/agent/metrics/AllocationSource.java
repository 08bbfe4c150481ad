package io.podnuma.agent.metrics;

/** The {@code source} label of the KEP-5526 allocation counters: where exclusive resources were drawn from. */
public enum AllocationSource {
    /** The node's free resources (container scope, or the pod's bubble itself). */
    NODE("node"),
    /** A pod's bubble, already taken from the node (pod-level resources). */
    POD("pod");

    private final String label;

    AllocationSource(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
