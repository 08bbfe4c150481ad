package io.podnuma.operator.assign;

/** What happens to a node's {@code podnuma.io/policy} label. */
public enum LabelChangeKind {
    /** The node had no label and now has a winner. */
    ADD,
    /** The node's label names another policy than its winner. */
    CHANGE,
    /** The node has a label but no winner any more. */
    REMOVE
}
