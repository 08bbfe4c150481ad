package io.podnuma.operator.assign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSelectorTest {

    static LabelSelectorRequirement expr(String key, String operator, String... values) {
        return new LabelSelectorRequirement(key, operator, values.length == 0 ? null : List.of(values));
    }

    static LabelSelector selector(Map<String, String> labels, LabelSelectorRequirement... expressions) {
        return new LabelSelectorBuilder()
                .withMatchLabels(labels.isEmpty() ? null : labels)
                .withMatchExpressions(expressions.length == 0 ? null : List.of(expressions))
                .build();
    }

    private static final Map<String, String> GPU_A = Map.of("zone", "a", "gpu", "true");
    private static final Map<String, String> CPU_B = Map.of("zone", "b");
    private static final Map<String, String> NONE = Map.of();

    static Stream<Arguments> cases() {
        return Stream.of(
                // selector, labels, selected
                Arguments.of("null", null, NONE, true),
                Arguments.of("{}", new LabelSelector(), CPU_B, true),
                Arguments.of("empty lists", new LabelSelector(List.of(), Map.of()), NONE, true),
                Arguments.of("matchLabels equal", selector(Map.of("zone", "a")), GPU_A, true),
                Arguments.of("matchLabels other value", selector(Map.of("zone", "a")), CPU_B, false),
                Arguments.of("matchLabels absent key", selector(Map.of("gpu", "true")), CPU_B, false),
                Arguments.of("matchLabels all must hold", selector(Map.of("zone", "a", "gpu", "false")), GPU_A, false),
                Arguments.of("In matches a value", selector(Map.of(), expr("zone", "In", "a", "c")), GPU_A, true),
                Arguments.of("In no value", selector(Map.of(), expr("zone", "In", "a", "c")), CPU_B, false),
                Arguments.of("In absent key", selector(Map.of(), expr("zone", "In", "a")), NONE, false),
                Arguments.of("NotIn other value", selector(Map.of(), expr("zone", "NotIn", "a")), CPU_B, true),
                Arguments.of("NotIn listed value", selector(Map.of(), expr("zone", "NotIn", "a")), GPU_A, false),
                Arguments.of("NotIn absent key selects", selector(Map.of(), expr("zone", "NotIn", "a")), NONE, true),
                Arguments.of("Exists present", selector(Map.of(), expr("gpu", "Exists")), GPU_A, true),
                Arguments.of("Exists absent", selector(Map.of(), expr("gpu", "Exists")), CPU_B, false),
                Arguments.of("DoesNotExist absent", selector(Map.of(), expr("gpu", "DoesNotExist")), CPU_B, true),
                Arguments.of("DoesNotExist present", selector(Map.of(), expr("gpu", "DoesNotExist")), GPU_A, false),
                Arguments.of(
                        "labels and expressions both hold",
                        selector(Map.of("zone", "a"), expr("gpu", "Exists")),
                        GPU_A,
                        true),
                Arguments.of(
                        "labels hold, an expression does not",
                        selector(Map.of("zone", "a"), expr("gpu", "DoesNotExist")),
                        GPU_A,
                        false),
                Arguments.of(
                        "two expressions, second fails",
                        selector(Map.of(), expr("zone", "In", "a"), expr("gpu", "NotIn", "true")),
                        GPU_A,
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void selectsAsKubernetesLabelSelectorsDo(
            String name, LabelSelector selector, Map<String, String> labels, boolean selected) {
        assertThat(NodeSelector.of(selector).selects(labels)).isEqualTo(selected);
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of(expr("zone", "Gt", "1"), "operator \"Gt\" is not one of In, NotIn, Exists, DoesNotExist"),
                Arguments.of(expr("zone", "In"), "operator In needs at least one value"),
                Arguments.of(expr("zone", "NotIn"), "operator NotIn needs at least one value"),
                Arguments.of(expr("zone", "Exists", "a"), "operator Exists takes no values"),
                Arguments.of(expr("zone", "DoesNotExist", "a"), "operator DoesNotExist takes no values"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("malformed")
    void aMalformedExpressionIsRefusedNamingTheKey(LabelSelectorRequirement e, String message) {
        assertThatThrownBy(() -> NodeSelector.of(selector(Map.of(), e)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"zone\"")
                .hasMessageContaining(message);
    }

    @Test
    void equalSelectorsWrittenInAnotherOrderAreEqual() {
        NodeSelector a = NodeSelector.of(selector(Map.of("x", "1", "y", "2"), expr("z", "In", "b", "a")));
        NodeSelector b = NodeSelector.of(selector(Map.of("y", "2", "x", "1"), expr("z", "In", "a", "b")));
        assertThat(a).isEqualTo(b);
    }
}
