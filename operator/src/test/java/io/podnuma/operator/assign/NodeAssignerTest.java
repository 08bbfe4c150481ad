package io.podnuma.operator.assign;

import static io.podnuma.operator.assign.Fixtures.ALL;
import static io.podnuma.operator.assign.Fixtures.deleting;
import static io.podnuma.operator.assign.Fixtures.labelled;
import static io.podnuma.operator.assign.Fixtures.labels;
import static io.podnuma.operator.assign.Fixtures.node;
import static io.podnuma.operator.assign.Fixtures.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeAssignerTest {

    private static final String LABEL = NodeCandidate.POLICY_LABEL + "=";

    /** node → winner, "-" for none, e.g. "n1=B n2=-". */
    static String winners(Assignment a) {
        return a.winners().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().orElse("-"))
                .collect(Collectors.joining(" "));
    }

    /** policy → governed and lost, e.g. "A[n1] lost{n2=B}". */
    static String sides(Assignment a) {
        return a.policies().entrySet().stream()
                .map(e -> e.getKey() + e.getValue().governed() + " lost"
                        + e.getValue().lost())
                .collect(Collectors.joining("; "));
    }

    static String changes(Assignment a) {
        return a.labelChanges().stream()
                .map(c -> c.node() + ":" + c.kind() + ":" + c.from().orElse("-") + ">" + c.to().orElse("-"))
                .collect(Collectors.joining(" "));
    }

    static Stream<Arguments> scenarios() {
        return Stream.of(
                Arguments.of(
                        "overlapping selectors: the higher priority wins the shared node only",
                        List.of(policy("A", 0, 0, labels("zone=a")), policy("B", 10, 5, labels("gpu=true"))),
                        List.of(node("n1", "zone=a", "gpu=true"), node("n2", "zone=a"), node("n3", "gpu=true")),
                        "n1=B n2=A n3=B",
                        "A[n2] lost{n1=B}; B[n1, n3] lost{}",
                        "n1:ADD:->B n2:ADD:->A n3:ADD:->B"),
                Arguments.of(
                        "equal priority: the older policy wins",
                        List.of(policy("A", 5, 10, ALL), policy("B", 5, 1, ALL)),
                        List.of(node("n1")),
                        "n1=B",
                        "A[] lost{n1=B}; B[n1] lost{}",
                        "n1:ADD:->B"),
                Arguments.of(
                        "equal priority and age: the name breaks the tie",
                        List.of(policy("beta", 5, 1, ALL), policy("alpha", 5, 1, ALL)),
                        List.of(node("n1")),
                        "n1=alpha",
                        "alpha[n1] lost{}; beta[] lost{n1=alpha}",
                        "n1:ADD:->alpha"),
                Arguments.of(
                        "priority beats age",
                        List.of(policy("old", 0, 0, ALL), policy("new", 1, 100, ALL)),
                        List.of(node("n1")),
                        "n1=new",
                        "new[n1] lost{}; old[] lost{n1=new}",
                        "n1:ADD:->new"),
                Arguments.of(
                        "{} selects every node, a narrower policy of higher priority takes its part",
                        List.of(policy("all", 0, 0, ALL), policy("gpu", 1, 0, labels("gpu=true"))),
                        List.of(node("n1"), node("n2", "gpu=true"), node("n3", "zone=x")),
                        "n1=all n2=gpu n3=all",
                        "all[n1, n3] lost{n2=gpu}; gpu[n2] lost{}",
                        "n1:ADD:->all n2:ADD:->gpu n3:ADD:->all"),
                Arguments.of(
                        "labels: kept where right, changed where another won, removed where none selects",
                        List.of(policy("A", 0, 0, labels("zone=a")), policy("B", 1, 0, labels("gpu=true"))),
                        List.of(
                                node("n1", "zone=a", LABEL + "A"),
                                node("n2", "zone=a", "gpu=true", LABEL + "A"),
                                node("n3", LABEL + "B"),
                                node("n4", "zone=a", LABEL + "gone"),
                                node("n5")),
                        "n1=A n2=B n3=- n4=A n5=-",
                        "A[n1, n4] lost{n2=B}; B[n2] lost{}",
                        "n2:CHANGE:A>B n3:REMOVE:B>- n4:CHANGE:gone>A"),
                Arguments.of(
                        "a policy being deleted governs nothing: its nodes go to the next policy or to none",
                        List.of(deleting(policy("A", 10, 0, ALL)), policy("B", 0, 0, labels("zone=b"))),
                        List.of(node("n1", "zone=b", LABEL + "A"), node("n2", LABEL + "A")),
                        "n1=B n2=-",
                        "A[] lost{}; B[n1] lost{}",
                        "n1:CHANGE:A>B n2:REMOVE:A>-"),
                Arguments.of(
                        "no policies: every label goes",
                        List.of(),
                        List.of(node("n1", LABEL + "A"), node("n2")),
                        "n1=- n2=-",
                        "",
                        "n1:REMOVE:A>-"),
                Arguments.of(
                        "no nodes: policies govern nothing",
                        List.of(policy("A", 0, 0, ALL)),
                        List.of(),
                        "",
                        "A[] lost{}",
                        ""),
                Arguments.of(
                        "selector operators decide who selects",
                        List.of(
                                policy(
                                        "notin",
                                        0,
                                        0,
                                        new LabelSelector(
                                                List.of(new LabelSelectorRequirement("zone", "NotIn", List.of("a"))),
                                                null)),
                                policy(
                                        "exists",
                                        1,
                                        0,
                                        new LabelSelector(
                                                List.of(new LabelSelectorRequirement("gpu", "Exists", null)), null))),
                        List.of(node("n1", "zone=a"), node("n2", "zone=b"), node("n3"), node("n4", "gpu=x", "zone=a")),
                        "n1=- n2=notin n3=notin n4=exists",
                        "exists[n4] lost{}; notin[n2, n3] lost{}",
                        "n2:ADD:->notin n3:ADD:->notin n4:ADD:->exists"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void assignsNodesAndLabels(
            String name,
            List<PolicyCandidate> policies,
            List<NodeCandidate> nodes,
            String winners,
            String sides,
            String changes) {
        Assignment a = NodeAssigner.assign(policies, nodes);
        assertThat(winners(a)).isEqualTo(winners);
        assertThat(sides(a)).isEqualTo(sides);
        assertThat(changes(a)).isEqualTo(changes);
    }

    @Test
    void onceTheLabelsAreWrittenASecondAssignmentChangesNothing() {
        List<PolicyCandidate> policies =
                List.of(policy("A", 0, 0, labels("zone=a")), policy("B", 1, 0, labels("gpu=true")));
        List<NodeCandidate> nodes = List.of(node("n1", "zone=a"), node("n2", "zone=a", "gpu=true"), node("n3"));
        List<NodeCandidate> written = applied(NodeAssigner.assign(policies, nodes), nodes);
        assertThat(NodeAssigner.assign(policies, written).labelChanges()).isEmpty();
    }

    @Test
    void aNodeJoiningGetsOneLabelAndTheOthersAreLeftAlone() {
        List<PolicyCandidate> policies = List.of(policy("A", 0, 0, labels("zone=a")));
        List<NodeCandidate> nodes =
                applied(NodeAssigner.assign(policies, List.of(node("n1", "zone=a"))), List.of(node("n1", "zone=a")));
        List<NodeCandidate> joined = new ArrayList<>(nodes);
        joined.add(node("n2", "zone=a"));
        Assignment a = NodeAssigner.assign(policies, joined);
        assertThat(changes(a)).isEqualTo("n2:ADD:->A");
        assertThat(a.of("A").governed()).containsExactly("n1", "n2");
    }

    @Test
    void aNodeLeavingDropsOutOfTheAssignmentWithoutALabelWrite() {
        List<PolicyCandidate> policies = List.of(policy("A", 0, 0, ALL), policy("B", 1, 0, labels("gpu=true")));
        List<NodeCandidate> before = List.of(node("n1", LABEL + "A"), node("n2", "gpu=true", LABEL + "B"));
        assertThat(NodeAssigner.assign(policies, before).of("A").lost()).containsEntry("n2", "B");
        Assignment after = NodeAssigner.assign(policies, List.of(before.get(0)));
        assertThat(after.labelChanges()).isEmpty();
        assertThat(after.winners()).containsOnlyKeys("n1");
        assertThat(after.of("A").lost()).isEmpty();
        assertThat(after.of("B").governed()).isEmpty();
        assertThat(after.winnerOf("n2")).isEmpty();
    }

    @Test
    void aLabelChangeOnTheNodeMovesItToAnotherPolicy() {
        List<PolicyCandidate> policies =
                List.of(policy("A", 0, 0, labels("zone=a")), policy("B", 0, 1, labels("zone=b")));
        NodeCandidate moved = node("n1", "zone=b", LABEL + "A");
        Assignment a = NodeAssigner.assign(policies, List.of(moved));
        assertThat(changes(a)).isEqualTo("n1:CHANGE:A>B");
        assertThat(a.of("A").governed()).isEmpty();
        assertThat(a.of("A").lost()).isEmpty();
        assertThat(a.of("B").governed()).containsExactly("n1");
    }

    @Test
    void deletingTheWinnerHandsItsNodesToTheLoser() {
        PolicyCandidate winner = policy("W", 10, 0, ALL);
        PolicyCandidate loser = policy("L", 0, 0, ALL);
        List<NodeCandidate> nodes = List.of(node("n1", LABEL + "W"), node("n2", LABEL + "W"));
        assertThat(NodeAssigner.assign(List.of(winner, loser), nodes).of("L").lost())
                .isEqualTo(new TreeMap<>(Map.of("n1", "W", "n2", "W")));
        Assignment a = NodeAssigner.assign(List.of(deleting(winner), loser), nodes);
        assertThat(a.of("L").governed()).containsExactly("n1", "n2");
        assertThat(a.of("W").governed()).isEmpty();
        assertThat(changes(a)).isEqualTo("n1:CHANGE:W>L n2:CHANGE:W>L");
    }

    @Test
    void anUnknownPolicyOrNodeHasNothing() {
        Assignment a = NodeAssigner.assign(List.of(), List.of());
        assertThat(a.of("nobody")).isEqualTo(PolicyNodes.NONE);
        assertThat(a.winnerOf("nowhere")).isEqualTo(Optional.empty());
    }

    @Test
    void twoObjectsWithOneNameAreRefused() {
        assertThatThrownBy(
                        () -> NodeAssigner.assign(List.of(policy("A", 0, 0, ALL), policy("A", 1, 0, ALL)), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two policy objects are both named A");
        assertThatThrownBy(() -> NodeAssigner.assign(List.of(), List.of(node("n1"), node("n1", "x=y"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two node objects are both named n1");
    }

    @Test
    void aLabelChangeMustBeOfItsKind() {
        assertThatThrownBy(() -> new LabelChange("n1", LabelChangeKind.ADD, Optional.of("A"), Optional.of("B")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("label change ADD on node n1");
        assertThatThrownBy(() -> new LabelChange("n1", LabelChangeKind.CHANGE, Optional.of("A"), Optional.of("A")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LabelChange("n1", LabelChangeKind.REMOVE, Optional.empty(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The nodes as they are once the assignment's label changes are written. */
    static List<NodeCandidate> applied(Assignment a, List<NodeCandidate> nodes) {
        return nodes.stream()
                .map(n -> labelled(n, a.winnerOf(n.name()).orElse(null)))
                .toList();
    }
}
