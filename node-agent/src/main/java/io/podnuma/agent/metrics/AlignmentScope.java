package io.podnuma.agent.metrics;

/** The {@code scope} label of {@code container_aligned_compute_resources_count}: the topology manager scope. */
public enum AlignmentScope {
    CONTAINER("container"),
    POD("pod");

    private final String label;

    AlignmentScope(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
