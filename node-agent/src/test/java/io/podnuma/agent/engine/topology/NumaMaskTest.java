package io.podnuma.agent.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NumaMaskTest {

    @Test
    void setOperationsAndCounts() {
        NumaMask a = NumaMask.of(0, 2, 3);
        NumaMask b = NumaMask.of(2, 5);
        assertThat(a.count()).isEqualTo(3);
        assertThat(a.and(b)).isEqualTo(NumaMask.of(2));
        assertThat(a.or(b)).isEqualTo(NumaMask.of(0, 2, 3, 5));
        assertThat(NumaMask.of(2).isSubsetOf(a)).isTrue();
        assertThat(b.isSubsetOf(a)).isFalse();
        assertThat(a.contains(3)).isTrue();
        assertThat(a.contains(64)).isFalse();
        assertThat(a.nodes()).containsExactly(0, 2, 3);
        assertThat(a.first()).isEqualTo(0);
        assertThat(NumaMask.of(63).bits()).isEqualTo(Long.MIN_VALUE);
        assertThat(NumaMask.firstNodes(64).count()).isEqualTo(64);
        assertThat(NumaMask.of(List.of(1, 1, 4))).isEqualTo(NumaMask.of(1, 4));
        assertThat(NumaMask.ofBits(0)).isSameAs(NumaMask.empty());
    }

    @Test
    void narrowerMeansFewerNodesThenNumericallySmaller() {
        assertThat(NumaMask.of(5).isNarrowerThan(NumaMask.of(0, 1))).isTrue();
        assertThat(NumaMask.of(0, 1).isNarrowerThan(NumaMask.of(5))).isFalse();
        assertThat(NumaMask.of(1, 2).isNarrowerThan(NumaMask.of(0, 3))).isTrue(); // 6 < 9
        assertThat(NumaMask.of(0, 3).isNarrowerThan(NumaMask.of(1, 2))).isFalse();
        assertThat(NumaMask.of(1).isNarrowerThan(NumaMask.of(1))).isFalse();
        // node 63 is the highest node, not a negative number
        assertThat(NumaMask.of(62).isLessThan(NumaMask.of(63))).isTrue();
        List<NumaMask> sorted =
                new ArrayList<>(List.of(NumaMask.of(0, 3), NumaMask.of(63), NumaMask.of(1, 2), NumaMask.of(0)));
        sorted.sort(null);
        assertThat(sorted).containsExactly(NumaMask.of(0), NumaMask.of(63), NumaMask.of(1, 2), NumaMask.of(0, 3));
    }

    @Test
    void subsetsComeBySizeThenLexicographically() {
        assertThat(NumaMask.subsetsBySize(NumaMask.of(0, 2, 5)))
                .containsExactly(
                        NumaMask.of(0),
                        NumaMask.of(2),
                        NumaMask.of(5),
                        NumaMask.of(0, 2),
                        NumaMask.of(0, 5),
                        NumaMask.of(2, 5),
                        NumaMask.of(0, 2, 5));
        assertThat(NumaMask.subsetsBySize(NumaMask.firstNodes(8))).hasSize(255).doesNotHaveDuplicates();
        assertThat(NumaMask.subsetsBySize(NumaMask.empty())).isEmpty();
        assertThatThrownBy(() -> NumaMask.subsetsBySize(NumaMask.firstNodes(21)))
                .hasMessageContaining("2^21 subsets");
    }

    @Test
    void printsLinuxListSyntaxAndRejectsBadIds() {
        assertThat(NumaMask.of(0, 1, 2, 5, 7, 8)).hasToString("{0-2,5,7-8}");
        assertThat(NumaMask.empty()).hasToString("{}");
        assertThatThrownBy(() -> NumaMask.of(64))
                .hasMessageContaining("NUMA node id 64 is out of range: allowed 0..63");
        assertThatThrownBy(() -> NumaMask.of(-1)).hasMessageContaining("NUMA node id -1 is out of range");
        assertThatThrownBy(() -> NumaMask.empty().first()).hasMessageContaining("empty NUMA mask");
    }

    @Test
    void distancesAverageOverOrderedPairsIncludingSelf() {
        NumaDistances d = NumaDistances.of(new int[][] {{10, 20, 30}, {20, 10, 15}, {30, 15, 10}});
        assertThat(d.pairSum(NumaMask.of(0, 1))).isEqualTo(10 + 20 + 20 + 10);
        assertThat(d.pairSum(NumaMask.of(1, 2))).isEqualTo(10 + 15 + 15 + 10);
        assertThat(MaskOrder.closest(d).compare(NumaMask.of(1, 2), NumaMask.of(0, 1)))
                .isNegative();
        assertThat(MaskOrder.narrowest().compare(NumaMask.of(1, 2), NumaMask.of(0, 1)))
                .isPositive();
        assertThat(MaskOrder.closest(d).compare(NumaMask.of(2), NumaMask.of(0, 1)))
                .isNegative();
        assertThatThrownBy(() -> NumaDistances.of(new int[][] {{10, 20}, {20}}))
                .hasMessageContaining("NUMA distance row 1 has 1 entries: the matrix must be square");
        assertThatThrownBy(() -> NumaDistances.of(new int[][] {{10, -1}, {20, 10}}))
                .hasMessageContaining("from node 0 to node 1 is -1");
    }
}
