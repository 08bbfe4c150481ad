package io.podnuma.agent.metrics;

/** The {@code boundary} label of {@code container_aligned_compute_resources_count}: what the CPUs were aligned to. */
public enum AlignmentBoundary {
    NUMA_NODE("numa_node"),
    PHYSICAL_CPU("physical_cpu"),
    UNCORE_CACHE("uncore_cache");

    private final String label;

    AlignmentBoundary(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
