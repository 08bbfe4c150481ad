package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.topology.ExhaustiveHintMerger;
import io.podnuma.agent.engine.topology.MaskOrder;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergeShapesTest {

    private static List<Integer> sizes(String id) {
        return MergeShapes.byId(id).providers().stream().map(List::size).toList();
    }

    @Test
    void shapesOfferTheMasksTheirDescriptionsPromise() {
        assertThat(sizes("merge/4numa-3x15-own")).containsExactly(15, 15, 15);
        assertThat(sizes("merge/8numa-4x255-singles")).containsExactly(255, 255, 255, 255);
        // masks of at least 1, 2, 3, 4 of 8 nodes
        assertThat(sizes("merge/8numa-4x-growing")).containsExactly(255, 247, 219, 163);
        // cpu: not single nodes; gpu: masks touching node 3 or 12 (all minus those within the other 14 nodes)
        assertThat(sizes("merge/16numa-3x-all")).containsExactly(65535 - 16, 65535, 65535 - 16383);
        assertThat(sizes("merge/16numa-3x-upto3")).containsExactly(680, 696, 696 - (14 + 91 + 364));
        assertThat(sizes("merge/34numa-3x-upto3")).containsExactly(6579, 6579, 6579);
        assertThat(MergeShapes.byId("merge/8numa-4x255-own").permutations()).isEqualTo(Math.pow(255, 4));
    }

    @Test
    void hintsComeBySizeThenLexicographically() {
        List<TopologyHint> hints = MergeShapes.hints(NumaMask.firstNodes(3), 3, w -> true, w -> w == 1);
        assertThat(hints.stream().map(h -> h.numaMask().toString()))
                .containsExactly("{0}", "{1}", "{2}", "{0-1}", "{0,2}", "{1-2}", "{0-2}");
        assertThat(hints.get(0).preferred()).isTrue();
        assertThat(hints.subList(1, hints.size())).noneMatch(TopologyHint::preferred);
    }

    @Test
    void podnumaAdmissionAgreesWithTheExhaustiveMergeWhereThatIsFeasible() {
        for (MergeShape shape : MergeShapes.all()) {
            if (!shape.exhaustiveFeasible()) {
                continue;
            }
            TopologyHint exhaustive =
                    new ExhaustiveHintMerger().merge(shape.nodes(), shape.providers(), MaskOrder.narrowest());
            assertThat(shape.admit().hint()).as(shape.id()).isEqualTo(exhaustive);
        }
    }

    @Test
    void theCompactHintsRowsAdmitWhatTheListRowsAdmit() {
        for (MergeShape shape : MergeShapes.all()) {
            assertThat(shape.compactProviderHints()).as(shape.id()).isEqualTo(shape.providerHints());
            assertThat(shape.bestEffort().admit(shape.compactProviderHints()))
                    .as(shape.id())
                    .isEqualTo(shape.admit());
        }
    }

    @Test
    void ownNodePreferencesHaveNoPreferredResult() {
        assertThat(MergeShapes.byId("merge/4numa-3x15-own").admit().hint())
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0)));
    }
}
