package io.podnuma.agent.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyHintsTest {

    private static final List<TopologyHint> MIXED = List.of(
            TopologyHint.preferred(NumaMask.of(1)),
            TopologyHint.dontCare(),
            TopologyHint.notPreferred(NumaMask.of(0, 1)),
            TopologyHint.notPreferred(NumaMask.empty()),
            TopologyHint.cannotSatisfy(),
            TopologyHint.preferred(NumaMask.of(63)),
            TopologyHint.notPreferred(NumaMask.ofBits(-1L)));

    @Test
    void keepsEveryHintInOrderIncludingAnyEmptyAndAllSixtyFourNodes() {
        TopologyHints compact = TopologyHints.of(MIXED);
        assertThat(compact).containsExactlyElementsOf(MIXED);
        assertThat(compact).isEqualTo(MIXED).hasSameHashCodeAs(MIXED);
        assertThat(new ArrayList<>(MIXED)).isEqualTo(compact);
        // "any" (null mask) and all 64 nodes are different hints, though both cut to every node
        assertThat(compact.get(1).numaMask()).isNull();
        assertThat(compact.get(6).numaMask()).isEqualTo(NumaMask.ofBits(-1L));
    }

    @Test
    void theBuilderGivesWhatOfGivesAndGrowsPastItsExpectedSize() {
        TopologyHints.Builder builder = TopologyHints.builder(1);
        builder.add(NumaMask.of(1), true)
                .addAny(true)
                .add(NumaMask.of(0, 1).bits(), false)
                .add(0L, false)
                .addAny(false)
                .add(NumaMask.of(63), true)
                .add(-1L, false);
        assertThat(builder.build()).isEqualTo(TopologyHints.of(MIXED));
        // a builder goes on after build(), and what it built does not change
        TopologyHints before = builder.build();
        builder.add(NumaMask.of(2), true);
        assertThat(before).hasSize(7);
        assertThat(builder.build()).hasSize(8).endsWith(TopologyHint.preferred(NumaMask.of(2)));
    }

    @Test
    void addingAfterBuildLeavesWhatWasBuiltAlone() {
        List<TopologyHint> narrow = List.of(TopologyHint.preferred(NumaMask.of(0)), TopologyHint.dontCare());
        TopologyHints.Builder builder = TopologyHints.builder(2); // full: build() hands its arrays over
        builder.add(NumaMask.of(0), true).addAny(true);
        TopologyHints built = builder.build();
        long[] bitmap = built.maskBitmap().clone();
        builder.add(NumaMask.of(1, 2), true).addAny(false).add(NumaMask.of(3), false);
        assertThat(built.maskBitmap()).containsExactly(bitmap);
        assertThat(built).isEqualTo(TopologyHints.of(narrow)).containsExactlyElementsOf(narrow);
        assertThat(built.preferredMasks()).containsExactly(NumaMask.of(0).bits());
        assertThat(builder.build()).hasSize(5).isNotEqualTo(built);
    }

    @Test
    void manyHintsCrossTheBitsetWords() {
        TopologyHints.Builder builder = TopologyHints.builder();
        List<TopologyHint> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            TopologyHint hint =
                    i % 7 == 0 ? new TopologyHint(null, i % 2 == 0) : new TopologyHint(NumaMask.ofBits(i), i % 3 == 0);
            expected.add(hint);
            if (hint.numaMask() == null) {
                builder.addAny(hint.preferred());
            } else {
                builder.add(hint.numaMask(), hint.preferred());
            }
        }
        assertThat(builder.build()).containsExactlyElementsOf(expected).isEqualTo(TopologyHints.of(expected));
    }

    @Test
    void theMergeSummaryIsWorkedOutWhenBuilt() {
        TopologyHints compact = TopologyHints.of(MIXED);
        assertThat(compact.minCount()).isZero(); // the empty mask
        assertThat(compact.hasAny()).isTrue();
        assertThat(compact.hasPreferredAny()).isTrue();
        assertThat(compact.preferredMasks())
                .containsExactly(NumaMask.of(63).bits(), NumaMask.of(1).bits());
        assertThat(compact.nodesUsed()).isEqualTo(-1L);
        assertThat(compact.maskBitmap())
                .as("masks beyond node 15 have no bitmap")
                .isNull();

        TopologyHints narrow = TopologyHints.of(List.of(
                TopologyHint.notPreferred(NumaMask.of(0, 2)),
                TopologyHint.preferred(NumaMask.of(2)),
                TopologyHint.notPreferred(NumaMask.of(0, 2)),
                TopologyHint.notPreferred(NumaMask.empty())));
        assertThat(narrow.minCount()).isZero();
        assertThat(narrow.hasAny()).isFalse();
        assertThat(narrow.hasPreferredAny()).isFalse();
        assertThat(narrow.acceptsPreferred(NumaMask.of(2).bits())).isTrue();
        assertThat(narrow.acceptsPreferred(NumaMask.of(0, 2).bits())).isFalse();
        assertThat(narrow.nodesUsed()).isEqualTo(NumaMask.of(0, 2).bits());
        // one bit per distinct non-empty word: 4 ({2}) and 5 ({0,2})
        assertThat(narrow.maskBitmap()).containsExactly((1L << 4) | (1L << 5));

        assertThat(TopologyHints.empty()).isEmpty();
        assertThat(TopologyHints.empty().minCount()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void isReadOnlyAndChecksItsInput() {
        TopologyHints compact = TopologyHints.of(MIXED);
        assertThatThrownBy(() -> compact.add(TopologyHint.dontCare()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> compact.set(0, TopologyHint.dontCare()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> compact.get(7)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> TopologyHints.of(Arrays.asList(TopologyHint.dontCare(), null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("null hint");
        assertThatThrownBy(() -> TopologyHints.builder().add(null, true)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> TopologyHints.builder(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(TopologyHints.of(compact)).isSameAs(compact);
    }
}
