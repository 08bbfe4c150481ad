package io.podnuma.agent.engine.pod;

/** The pod's quality-of-service class. */
public enum PodQos {
    GUARANTEED("Guaranteed"),
    BURSTABLE("Burstable"),
    BEST_EFFORT("BestEffort");

    private final String wireName;

    PodQos(String wireName) {
        this.wireName = wireName;
    }

    /** The Kubernetes spelling, e.g. {@code Guaranteed}. */
    public String wireName() {
        return wireName;
    }
}
