package io.podnuma.operator.assign;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A policy's node selector, read once from the API's {@link LabelSelector}: every {@code matchLabels} pair and every
 * {@code matchExpressions} requirement must hold (a logical AND). No requirement at all selects every node, as the
 * CRD documents for {@code {}}.
 */
public record NodeSelector(SortedMap<String, String> matchLabels, List<Requirement> matchExpressions) {

    /** Every node. */
    public static final NodeSelector ALL = new NodeSelector(new TreeMap<>(), List.of());

    /** One {@code matchExpressions} entry. */
    public record Requirement(String key, SelectorOperator operator, SortedSet<String> values) {
        public Requirement {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(operator, "operator");
            values = Collections.unmodifiableSortedSet(new TreeSet<>(values));
            if (operator.takesValues() == values.isEmpty()) {
                throw new IllegalArgumentException(
                        "selector requirement on \"" + key + "\": operator " + operator.wire()
                                + (operator.takesValues() ? " needs at least one value" : " takes no values"));
            }
        }

        boolean matches(Map<String, String> labels) {
            return operator.matches(key, values, labels);
        }
    }

    public NodeSelector {
        matchLabels = Collections.unmodifiableSortedMap(new TreeMap<>(matchLabels));
        matchExpressions = List.copyOf(matchExpressions);
    }

    /**
     * The selector the API object states; {@code null} or {@code {}} selects every node.
     *
     * @throws IllegalArgumentException when an expression has an unknown operator or the wrong number of values (the
     *     CRD's CEL rules reject both, so only an object that bypassed them gets here)
     */
    public static NodeSelector of(LabelSelector selector) {
        if (selector == null) {
            return ALL;
        }
        Map<String, String> labels = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
        List<Requirement> requirements = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement e : selector.getMatchExpressions()) {
                SelectorOperator operator = SelectorOperator.of(e.getOperator())
                        .orElseThrow(() -> new IllegalArgumentException("selector requirement on \"" + e.getKey()
                                + "\": operator \"" + e.getOperator()
                                + "\" is not one of In, NotIn, Exists, DoesNotExist"));
                requirements.add(new Requirement(
                        e.getKey(), operator, new TreeSet<>(e.getValues() == null ? List.of() : e.getValues())));
            }
        }
        return new NodeSelector(new TreeMap<>(labels), requirements);
    }

    /** Whether a node with these labels is selected. */
    public boolean selects(Map<String, String> labels) {
        for (Map.Entry<String, String> wanted : matchLabels.entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                return false;
            }
        }
        return matchExpressions.stream().allMatch(r -> r.matches(labels));
    }
}
