package io.podnuma.operator.render;

/** The taint effect a toleration matches; a toleration without one matches every effect. */
public enum TaintEffect {
    NO_SCHEDULE("NoSchedule"),
    PREFER_NO_SCHEDULE("PreferNoSchedule"),
    NO_EXECUTE("NoExecute");

    private final String wire;

    TaintEffect(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
