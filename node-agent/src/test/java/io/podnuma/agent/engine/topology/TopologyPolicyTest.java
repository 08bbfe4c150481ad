package io.podnuma.agent.engine.topology;

import static io.podnuma.agent.engine.topology.TopologyPolicyName.BEST_EFFORT;
import static io.podnuma.agent.engine.topology.TopologyPolicyName.NONE;
import static io.podnuma.agent.engine.topology.TopologyPolicyName.RESTRICTED;
import static io.podnuma.agent.engine.topology.TopologyPolicyName.SINGLE_NUMA_NODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TopologyPolicyTest {

    private static final NumaMask TWO = NumaMask.of(0, 1);
    private static final NumaMask FOUR = NumaMask.of(0, 1, 2, 3);

    static TopologyHint p(int... nodes) {
        return TopologyHint.preferred(NumaMask.of(nodes));
    }

    static TopologyHint np(int... nodes) {
        return TopologyHint.notPreferred(NumaMask.of(nodes));
    }

    /** One provider with one resource. */
    static Map<String, List<TopologyHint>> provider(String resource, TopologyHint... hints) {
        Map<String, List<TopologyHint>> map = new HashMap<>();
        map.put(resource, hints == null ? null : Arrays.asList(hints));
        return map;
    }

    @SafeVarargs
    static List<Map<String, List<TopologyHint>>> providers(Map<String, List<TopologyHint>>... providers) {
        return new ArrayList<>(Arrays.asList(providers));
    }

    /**
     * Columns: machine, provider hints, then the expected hint and admission under best-effort, restricted
     * and single-numa-node ({@code null} hint = "any node").
     */
    static Stream<Arguments> table() {
        return Stream.of(
                row(
                        "no providers: any node, preferred",
                        TWO,
                        providers(),
                        p(0, 1),
                        true,
                        p(0, 1),
                        true,
                        dontCare(true),
                        true),
                row(
                        "a provider without hints has no preference",
                        TWO,
                        providers(Map.of()),
                        p(0, 1),
                        true,
                        p(0, 1),
                        true,
                        dontCare(true),
                        true),
                row(
                        "a resource with a null list has no preference",
                        TWO,
                        providers(provider("cpu", (TopologyHint[]) null)),
                        p(0, 1),
                        true,
                        p(0, 1),
                        true,
                        dontCare(true),
                        true),
                row(
                        "a resource with an empty list cannot be satisfied",
                        TWO,
                        providers(provider("cpu")),
                        np(0, 1),
                        true,
                        np(0, 1),
                        false,
                        dontCare(false),
                        false),
                row(
                        "same single node, both preferred",
                        TWO,
                        providers(provider("cpu", p(0)), provider("memory", p(0))),
                        p(0),
                        true,
                        p(0),
                        true,
                        p(0),
                        true),
                row(
                        "no common node: the empty AND is ignored",
                        TWO,
                        providers(provider("cpu", p(0)), provider("memory", p(1))),
                        np(0, 1),
                        true,
                        np(0, 1),
                        false,
                        dontCare(false),
                        false),
                row(
                        "same mask, one not preferred",
                        TWO,
                        providers(provider("cpu", p(0)), provider("memory", np(0))),
                        np(0),
                        true,
                        np(0),
                        false,
                        dontCare(false),
                        false),
                row(
                        "matching narrow preferred hint from both",
                        TWO,
                        providers(provider("cpu", p(0), np(0, 1)), provider("memory", p(0), np(0, 1))),
                        p(0),
                        true,
                        p(0),
                        true,
                        p(0),
                        true),
                row(
                        "a wider preferred hint beats a narrower not-preferred one",
                        TWO,
                        providers(provider("cpu", p(1), np(0, 1)), provider("memory", p(0), p(1), np(0, 1))),
                        p(1),
                        true,
                        p(1),
                        true,
                        p(1),
                        true),
                row(
                        "both need two nodes: preferred, but not on one node",
                        TWO,
                        providers(provider("cpu", p(0, 1)), provider("memory", p(0, 1))),
                        p(0, 1),
                        true,
                        p(0, 1),
                        true,
                        dontCare(false),
                        false),
                row(
                        "a don't-care provider takes the other's best",
                        TWO,
                        providers(Map.of(), provider("memory", p(0), np(0, 1))),
                        p(0),
                        true,
                        p(0),
                        true,
                        p(0),
                        true),
                row(
                        "preferred 'any' and a preferred mask merge to the mask",
                        TWO,
                        providers(provider("cpu", TopologyHint.dontCare()), provider("memory", p(1))),
                        p(1),
                        true,
                        p(1),
                        true,
                        p(1),
                        true),
                row(
                        "two resources of one provider both count",
                        TWO,
                        providers(Map.of("cpu", List.of(p(0), p(1)), "gpu", List.of(p(1), np(0, 1)))),
                        p(1),
                        true,
                        p(1),
                        true,
                        p(1),
                        true),
                row(
                        "single-numa-node drops multi-node and not-preferred hints",
                        TWO,
                        providers(provider("cpu", p(0), np(1), np(0, 1)), provider("memory", np(0), p(1), p(0, 1))),
                        np(0),
                        true,
                        np(0),
                        false,
                        dontCare(false),
                        false),
                row(
                        "not preferred: the count the most demanding resource needs wins",
                        FOUR,
                        providers(
                                provider("cpu", p(0, 1), np(0, 1, 2), np(0, 1, 2, 3)),
                                provider("memory", p(2), np(0, 2), np(0, 1, 2, 3))),
                        np(0, 1),
                        true,
                        np(0, 1),
                        false,
                        dontCare(false),
                        false),
                row(
                        "not preferred: below the target, more nodes is better",
                        FOUR,
                        providers(provider("cpu", np(0, 1, 2), np(0, 1, 2, 3)), provider("memory", np(0, 3))),
                        np(0, 3),
                        true,
                        np(0, 3),
                        false,
                        dontCare(false),
                        false),
                row(
                        "not preferred: exactly the target beats below it",
                        FOUR,
                        providers(
                                provider("cpu", np(0, 1, 2), np(0, 1, 2, 3)),
                                provider("memory", np(0, 3), np(1, 2, 3))),
                        np(1, 2, 3),
                        true,
                        np(1, 2, 3),
                        false,
                        dontCare(false),
                        false),
                row(
                        "only 'any' hints: target 0, every result is above it",
                        FOUR,
                        providers(
                                provider("cpu", TopologyHint.notPreferred(null)),
                                provider("memory", TopologyHint.dontCare())),
                        np(0, 1, 2, 3),
                        true,
                        np(0, 1, 2, 3),
                        false,
                        dontCare(false),
                        false),
                row(
                        "masks outside the machine are cut to it",
                        TWO,
                        providers(provider("cpu", p(1, 5)), provider("memory", p(1, 5))),
                        p(1),
                        true,
                        p(1),
                        true,
                        dontCare(false),
                        false),
                row(
                        "one-node machine: single-numa-node reports 'any'",
                        NumaMask.of(0),
                        providers(provider("cpu", p(0))),
                        p(0),
                        true,
                        p(0),
                        true,
                        dontCare(true),
                        true));
    }

    private static TopologyHint dontCare(boolean preferred) {
        return new TopologyHint(null, preferred);
    }

    private static Arguments row(
            String name,
            NumaMask nodes,
            List<Map<String, List<TopologyHint>>> providers,
            TopologyHint bestEffort,
            boolean bestEffortAdmits,
            TopologyHint restricted,
            boolean restrictedAdmits,
            TopologyHint singleNode,
            boolean singleNodeAdmits) {
        return Arguments.of(
                name,
                nodes,
                providers,
                bestEffort,
                bestEffortAdmits,
                restricted,
                restrictedAdmits,
                singleNode,
                singleNodeAdmits);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void policiesMergeAndAdmitLikeTheKubelet(
            String name,
            NumaMask nodes,
            List<Map<String, List<TopologyHint>>> providers,
            TopologyHint bestEffort,
            boolean bestEffortAdmits,
            TopologyHint restricted,
            boolean restrictedAdmits,
            TopologyHint singleNode,
            boolean singleNodeAdmits) {
        assertAdmission(BEST_EFFORT, nodes, providers, bestEffort, bestEffortAdmits);
        assertAdmission(RESTRICTED, nodes, providers, restricted, restrictedAdmits);
        assertAdmission(SINGLE_NUMA_NODE, nodes, providers, singleNode, singleNodeAdmits);
        TopologyAdmission none = policy(NONE, nodes).admit(providers);
        assertThat(none.admitted()).isTrue();
        assertThat(none.hint()).isEqualTo(new TopologyHint(null, false));
    }

    private static void assertAdmission(
            TopologyPolicyName name,
            NumaMask nodes,
            List<Map<String, List<TopologyHint>>> providers,
            TopologyHint hint,
            boolean admitted) {
        TopologyAdmission fast = policy(name, nodes).admit(providers);
        assertThat(fast.hint()).as("%s hint", name).isEqualTo(hint);
        assertThat(fast.admitted()).as("%s admits", name).isEqualTo(admitted);
        assertThat(fast.reason()).isEqualTo(admitted ? null : TopologyAdmission.TOPOLOGY_AFFINITY_ERROR);
        TopologyAdmission reference = TopologyPolicy.create(
                        name, TopologyManagerOptions.defaults(), nodes, null, new ExhaustiveHintMerger())
                .admit(providers);
        assertThat(fast).as("%s against the exhaustive merge", name).isEqualTo(reference);
    }

    private static TopologyPolicy policy(TopologyPolicyName name, NumaMask nodes) {
        return TopologyPolicy.create(name, TopologyManagerOptions.defaults(), nodes, null);
    }

    @Test
    void preferClosestNumaNodesPicksTheNearerPairAmongEqualSizes() {
        // node 0 is far from 1 and near 2
        NumaDistances distances =
                NumaDistances.of(new int[][] {{10, 21, 11, 21}, {21, 10, 21, 11}, {11, 21, 10, 21}, {21, 11, 21, 10}});
        List<Map<String, List<TopologyHint>>> providers = providers(
                provider("cpu", p(0, 1), np(0, 1, 2), np(0, 1, 2, 3)),
                provider("memory", p(2), np(0, 2), np(0, 1, 2, 3)));
        TopologyManagerOptions closest = new TopologyManagerOptions(true, 8);

        assertThat(policy(BEST_EFFORT, FOUR).admit(providers).hint()).isEqualTo(np(0, 1));
        assertThat(TopologyPolicy.create(BEST_EFFORT, closest, FOUR, distances)
                        .admit(providers)
                        .hint())
                .isEqualTo(np(0, 2));
        assertThat(TopologyPolicy.create(BEST_EFFORT, closest, FOUR, distances, new ExhaustiveHintMerger())
                        .admit(providers)
                        .hint())
                .isEqualTo(np(0, 2));
    }

    @Test
    void preferClosestAppliesToPreferredHintsToo() {
        NumaDistances distances =
                NumaDistances.of(new int[][] {{10, 21, 11, 21}, {21, 10, 21, 11}, {11, 21, 10, 21}, {21, 11, 21, 10}});
        List<Map<String, List<TopologyHint>>> providers =
                providers(provider("cpu", p(0, 1), p(0, 2), p(1, 3)), provider("memory", p(0, 1), p(0, 2), p(1, 3)));
        assertThat(policy(RESTRICTED, FOUR).admit(providers).hint()).isEqualTo(p(0, 1));
        assertThat(TopologyPolicy.create(RESTRICTED, new TopologyManagerOptions(true, 8), FOUR, distances)
                        .admit(providers)
                        .hint())
                .isEqualTo(p(0, 2));
    }

    @Test
    void rejectionSaysWhatWasRequestedAndWhatWasPossible() {
        TopologyAdmission admission = policy(SINGLE_NUMA_NODE, TWO)
                .admit(providers(provider("cpu", p(0, 1)), provider("memory", p(0), np(0, 1)), provider("gpu")));
        assertThat(admission.admitted()).isFalse();
        assertThat(admission.reason()).isEqualTo("TopologyAffinityError");
        assertThat(admission.message())
                .startsWith("Resources cannot be allocated with Topology locality")
                .contains("policy single-numa-node admits only a preferred placement on one NUMA node")
                .contains("cpu [{0-1} preferred]")
                .contains("memory [{0} preferred, {0-1} not-preferred]")
                .contains("gpu (no NUMA placement can satisfy it)")
                .contains("best possible on NUMA nodes {0-1}");
    }

    @Test
    void machinesAboveMaxAllowableNumaNodesAreRefusedUnlessRaised() {
        NumaMask nine = NumaMask.firstNodes(9);
        assertThatThrownBy(() -> policy(RESTRICTED, nine))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 8 NUMA nodes")
                .hasMessageContaining("this machine has 9")
                .hasMessageContaining("max-allowable-numa-nodes to at least 9");
        assertThat(TopologyPolicy.create(RESTRICTED, new TopologyManagerOptions(false, 9), nine, null)
                        .nodes())
                .isEqualTo(nine);
        assertThat(policy(NONE, nine).name()).isEqualTo(NONE);
    }

    @Test
    void optionsParseWithUpstreamNamesAndRules() {
        assertThat(TopologyManagerOptions.parse(Map.of())).isEqualTo(TopologyManagerOptions.defaults());
        assertThat(TopologyManagerOptions.parse(
                        Map.of("prefer-closest-numa-nodes", "true", "max-allowable-numa-nodes", "34")))
                .isEqualTo(new TopologyManagerOptions(true, 34));
        assertThatThrownBy(() -> TopologyManagerOptions.parse(Map.of("max-allowable-numa-nodes", "7")))
                .hasMessageContaining("max-allowable-numa-nodes=7")
                .hasMessageContaining("at least 8");
        assertThatThrownBy(() -> TopologyManagerOptions.parse(Map.of("max-allowable-numa-nodes", "many")))
                .hasMessageContaining("\"many\" is not an integer");
        assertThatThrownBy(() -> TopologyManagerOptions.parse(Map.of("prefer-closest-numa-nodes", "yes")))
                .hasMessageContaining("is not a boolean");
        assertThatThrownBy(() -> TopologyManagerOptions.parse(Map.of("align-everything", "true")))
                .hasMessageContaining("unknown topology manager option \"align-everything\"");
        assertThatThrownBy(() -> TopologyPolicyName.parse("strict"))
                .hasMessageContaining("\"strict\"")
                .hasMessageContaining("none, best-effort, restricted, single-numa-node");
        assertThat(TopologyPolicyName.parse("single-numa-node")).isEqualTo(SINGLE_NUMA_NODE);
    }

    @Test
    void preferClosestNeedsDistancesExceptUnderSingleNumaNode() {
        TopologyManagerOptions closest = new TopologyManagerOptions(true, 8);
        assertThatThrownBy(() -> TopologyPolicy.create(BEST_EFFORT, closest, TWO, null))
                .hasMessageContaining("prefer-closest-numa-nodes=true needs the NUMA distances");
        assertThatThrownBy(() -> TopologyPolicy.create(BEST_EFFORT, closest, FOUR, NumaDistances.uniform(2, 20)))
                .hasMessageContaining("NUMA node 2")
                .hasMessageContaining("no distance row");
        assertThat(TopologyPolicy.create(SINGLE_NUMA_NODE, closest, TWO, null).name())
                .isEqualTo(SINGLE_NUMA_NODE);
    }
}
