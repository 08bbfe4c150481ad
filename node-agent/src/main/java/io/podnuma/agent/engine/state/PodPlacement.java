package io.podnuma.agent.engine.state;

/** Which rules placed a pod. */
public enum PodPlacement {
    /** Pod scope with a pod-level budget: one bubble, exclusive slices and a pod shared pool (spec §2). */
    POD_LEVEL("pod-level"),
    /** Pod scope without a bubble: one NUMA hint for the pod, CPUs per container from the node (spec §4). */
    POD("pod"),
    /** Container scope: each container placed alone (spec §3, §4). */
    CONTAINER("container");

    private final String wireName;

    PodPlacement(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static PodPlacement parse(String value) {
        for (PodPlacement p : values()) {
            if (p.wireName.equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException(
                "pod placement \"" + value + "\" is unknown: allowed pod-level, pod, container");
    }
}
