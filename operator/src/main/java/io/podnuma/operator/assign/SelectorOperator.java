package io.podnuma.operator.assign;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The operator of one {@code matchExpressions} entry, with Kubernetes' label selector semantics. */
public enum SelectorOperator {
    /** The label is present and its value is one of the values. */
    IN("In"),
    /** The label is absent, or its value is none of the values. */
    NOT_IN("NotIn"),
    /** The label is present, whatever its value. */
    EXISTS("Exists"),
    /** The label is absent. */
    DOES_NOT_EXIST("DoesNotExist");

    private final String wire;

    SelectorOperator(String wire) {
        this.wire = wire;
    }

    /** The operator as the selector spells it. */
    public String wire() {
        return wire;
    }

    /** Whether values are required ({@code In}, {@code NotIn}) rather than forbidden. */
    public boolean takesValues() {
        return this == IN || this == NOT_IN;
    }

    public static Optional<SelectorOperator> of(String wire) {
        return Arrays.stream(values()).filter(o -> o.wire.equals(wire)).findFirst();
    }

    boolean matches(String key, Set<String> values, Map<String, String> labels) {
        String value = labels.get(key);
        return switch (this) {
            case IN -> value != null && values.contains(value);
            case NOT_IN -> value == null || !values.contains(value);
            case EXISTS -> value != null;
            case DOES_NOT_EXIST -> value == null;
        };
    }
}
