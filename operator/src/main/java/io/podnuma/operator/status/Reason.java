package io.podnuma.operator.status;

/** A condition's reason: one CamelCase word that tools and alerts match on. */
public sealed interface Reason permits ConditionReason, FailureReason {

    /** The reason as the condition carries it. */
    String wire();
}
