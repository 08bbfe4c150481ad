package io.podnuma.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.operator.assign.Assignment;
import io.podnuma.operator.assign.LabelChange;
import io.podnuma.operator.assign.NodeAssigner;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.assign.NodeSelector;
import io.podnuma.operator.assign.PolicyCandidate;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelPlanTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** a (priority 5) selects role=a; b (priority 0) selects role=a or role=b through "any=yes". */
    private static Assignment assignment(List<NodeCandidate> nodes) {
        return NodeAssigner.assign(
                List.of(
                        new PolicyCandidate("a", "ua", 5, T0, false, selector("role", "a")),
                        new PolicyCandidate("b", "ub", 0, T0, false, selector("any", "yes"))),
                nodes);
    }

    private static NodeSelector selector(String key, String value) {
        return NodeSelector.of(new LabelSelector(null, Map.of(key, value)));
    }

    private static NodeCandidate node(String name, String role, String label) {
        return new NodeCandidate(
                name,
                label == null
                        ? Map.of("role", role, "any", "yes")
                        : Map.of("role", role, "any", "yes", NodeCandidate.POLICY_LABEL, label));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // node, reconciled policy, existing policies, the node's change is this policy's to write
                Arguments.of(node("n", "a", null), "a", Set.of("a", "b"), true), // a gains it
                Arguments.of(node("n", "a", null), "b", Set.of("a", "b"), false), // a's to write, not b's
                Arguments.of(node("n", "a", "b"), "a", Set.of("a", "b"), true), // a takes it from b
                Arguments.of(node("n", "a", "b"), "b", Set.of("a", "b"), true), // b loses it
                Arguments.of(node("n", "b", "a"), "b", Set.of("a", "b"), true), // b gains it from a
                Arguments.of(node("n", "a", "a"), "a", Set.of("a", "b"), false), // nothing to change
                Arguments.of(node("n", "a", "c"), "b", Set.of("a", "b"), true), // c is gone: anyone corrects it
                Arguments.of(node("n", "a", "c"), "b", Set.of("a", "b", "c"), false)); // c exists: a and c write
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aReconcileWritesOnlyTheChangesThatGiveOrTakeItsNodes(
            NodeCandidate node, String policy, Set<String> existing, boolean writes) {
        List<LabelChange> changes = LabelPlan.concerning(assignment(List.of(node)), policy, existing);
        assertThat(changes.isEmpty()).isEqualTo(!writes);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void gainedAreTheChangesThatNameThePolicyAsWinner(
            NodeCandidate node, String policy, Set<String> existing, boolean writes) {
        List<LabelChange> changes = LabelPlan.concerning(assignment(List.of(node)), policy, existing);
        assertThat(LabelPlan.gained(changes, policy))
                .isEqualTo(changes.stream()
                        .filter(c -> c.to().equals(java.util.Optional.of(policy)))
                        .map(LabelChange::node)
                        .toList());
    }
}
