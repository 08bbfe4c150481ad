package io.podnuma.operator.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The label keys extra labels and node-selector terms may not set, because the operator finds its own objects by
 * them: the DaemonSet's and the Service's selector ({@code app.kubernetes.io/name}, {@code podnuma.io/policy}) and
 * the narrowing of the operator's informers ({@code app.kubernetes.io/managed-by}).
 */
public final class AgentLabels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

    /** Not settable as extra labels of the agents' objects. */
    public static final List<String> RESERVED = List.of(NAME, AgentRender.POLICY_LABEL, MANAGED_BY);
    /** Not settable as extra node-selector terms: the operator's node label is always one of them. */
    public static final List<String> RESERVED_IN_NODE_SELECTOR = List.of(AgentRender.POLICY_LABEL);

    private AgentLabels() {}

    /** Refuses a map with a bad key or value, or one of {@code reserved}, naming {@code what} and every problem. */
    static void require(String what, Map<String, String> labels, List<String> reserved) {
        List<String> problems = new ArrayList<>();
        labels.forEach((k, v) -> {
            LabelSyntax.keyProblem(k).ifPresent(p -> problems.add(k + ": allowed " + p));
            LabelSyntax.valueProblem(v).ifPresent(p -> problems.add(k + "=" + v + ": allowed " + p));
            if (reserved.contains(k)) {
                problems.add(k + ": the operator sets it");
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(what + ": " + String.join("; ", problems));
        }
    }
}
