package io.podnuma.operator.kube;

/** The operator's one field manager, on every write it makes (labels, dependents, status, Events). */
public final class FieldManager {

    public static final String NAME = "podnuma-operator";

    private FieldManager() {}
}
