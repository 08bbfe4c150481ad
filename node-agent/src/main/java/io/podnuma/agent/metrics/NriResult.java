package io.podnuma.agent.metrics;

/** The {@code result} label of {@code podnuma_nri_requests_total}. */
public enum NriResult {
    /** CreateContainer answered with the container's CPUs and memory nodes. */
    PINNED("pinned"),
    /** CreateContainer answered without a pin (the agent writes none now; the cgroup path decides later). */
    UNPINNED("unpinned"),
    /** Any other call answered. */
    OK("ok"),
    /** The call failed (the runtime was told why, or did not answer). */
    FAILED("failed");

    private final String label;

    NriResult(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
