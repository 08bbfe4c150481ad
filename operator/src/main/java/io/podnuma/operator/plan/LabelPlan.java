package io.podnuma.operator.plan;

import io.podnuma.operator.assign.Assignment;
import io.podnuma.operator.assign.LabelChange;
import java.util.List;
import java.util.Set;

/**
 * The label writes one policy's reconcile makes: the changes that give it a node or take one from it. A node moving
 * between two other policies is theirs to write, so a reconcile never touches a node another policy governs. A label
 * naming a policy that no longer exists is nobody's; every reconcile may correct it (the write is the same whoever
 * makes it).
 */
public final class LabelPlan {

    private LabelPlan() {}

    public static List<LabelChange> concerning(Assignment assignment, String policy, Set<String> existingPolicies) {
        return assignment.labelChanges().stream()
                .filter(c -> c.to().map(policy::equals).orElse(false)
                        || c.from().map(policy::equals).orElse(false)
                        || c.from().map(f -> !existingPolicies.contains(f)).orElse(false))
                .toList();
    }

    /** The nodes these changes give to {@code policy}. */
    public static List<String> gained(List<LabelChange> changes, String policy) {
        return changes.stream()
                .filter(c -> c.to().map(policy::equals).orElse(false))
                .map(LabelChange::node)
                .toList();
    }
}
