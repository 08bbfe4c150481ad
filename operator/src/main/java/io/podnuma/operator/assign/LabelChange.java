package io.podnuma.operator.assign;

import java.util.Objects;
import java.util.Optional;

/**
 * One node whose {@code podnuma.io/policy} label is to be written: from the policy it names now to its winner. Only
 * nodes whose winner differs from their label get one, so an unchanged assignment writes nothing.
 */
public record LabelChange(String node, LabelChangeKind kind, Optional<String> from, Optional<String> to) {

    public LabelChange {
        Objects.requireNonNull(node, "node");
        boolean consistent = switch (kind) {
            case ADD -> from.isEmpty() && to.isPresent();
            case CHANGE -> from.isPresent() && to.isPresent() && !from.equals(to);
            case REMOVE -> from.isPresent() && to.isEmpty();
        };
        if (!consistent) {
            throw new IllegalArgumentException("label change " + kind + " on node " + node + " from " + from + " to "
                    + to + " does not describe a change of that kind");
        }
    }

    /** The change that takes a node from its label to its winner, or none when they agree. */
    static Optional<LabelChange> between(String node, Optional<String> label, Optional<String> winner) {
        if (label.equals(winner)) {
            return Optional.empty();
        }
        LabelChangeKind kind = label.isEmpty()
                ? LabelChangeKind.ADD
                : winner.isEmpty() ? LabelChangeKind.REMOVE : LabelChangeKind.CHANGE;
        return Optional.of(new LabelChange(node, kind, label, winner));
    }
}
