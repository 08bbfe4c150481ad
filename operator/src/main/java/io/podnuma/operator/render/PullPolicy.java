package io.podnuma.operator.render;

/** A container's {@code imagePullPolicy}. */
public enum PullPolicy {
    ALWAYS("Always"),
    IF_NOT_PRESENT("IfNotPresent"),
    NEVER("Never");

    private final String wire;

    PullPolicy(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
