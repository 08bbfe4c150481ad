package io.podnuma.operator.render;

/** A toleration's {@code operator}: {@code Exists} tolerates any value of the key, {@code Equal} only its value. */
public enum TolerationOperator {
    EXISTS("Exists"),
    EQUAL("Equal");

    private final String wire;

    TolerationOperator(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
