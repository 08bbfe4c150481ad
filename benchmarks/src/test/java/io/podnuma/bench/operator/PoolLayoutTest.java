package io.podnuma.bench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PoolLayoutTest {

    private final PoolLayout full = PoolLayout.of(5_000, 50);

    @Test
    void fiftyPoliciesPartitionThePoolsAndTheLastTenthSelectTwo() {
        List<PoolLayout.PolicyPlan> policies = full.policies();
        assertThat(policies).hasSize(50);
        assertThat(policies.get(0)).isEqualTo(new PoolLayout.PolicyPlan(0, "scale-00", List.of(0), 100));
        assertThat(policies.get(44).pools()).containsExactly(44);
        assertThat(policies.subList(45, 50))
                .extracting(PoolLayout.PolicyPlan::pools, PoolLayout.PolicyPlan::priority)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of(45, 0), 200),
                        org.assertj.core.groups.Tuple.tuple(List.of(46, 1), 50),
                        org.assertj.core.groups.Tuple.tuple(List.of(47, 2), 100),
                        org.assertj.core.groups.Tuple.tuple(List.of(48, 3), 200),
                        org.assertj.core.groups.Tuple.tuple(List.of(49, 4), 50));
        assertThat(policies.get(47).poolValues()).containsExactly("p47", "p2");
    }

    /** Higher priority wins; a lower one loses; an equal one loses to the older (smaller index) policy. */
    @ParameterizedTest
    @CsvSource({
        "0, scale-45",
        "1, scale-01",
        "2, scale-02",
        "3, scale-48",
        "4, scale-04",
        "5, scale-05",
        "45, scale-45",
        "46, scale-46",
        "47, scale-47",
        "49, scale-49"
    })
    void winnerOfEachPool(int pool, String winner) {
        assertThat(full.winner(pool).name()).isEqualTo(winner);
    }

    @Test
    void everyNodeIsLabelledAndTheCountsAddUp() {
        Map<String, String> labels = full.expectedLabels();
        assertThat(labels)
                .hasSize(5_000)
                .containsEntry("scale-node-00000", "scale-45")
                .containsEntry("scale-node-00051", "scale-01");
        Map<String, Integer> matched = full.expectedMatched();
        assertThat(matched).hasSize(50);
        assertThat(matched.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(5_000);
        // scale-00 and scale-03 lose their only pool; the wide winners hold two pools of 100.
        assertThat(matched)
                .containsEntry("scale-00", 0)
                .containsEntry("scale-03", 0)
                .containsEntry("scale-45", 200)
                .containsEntry("scale-46", 100)
                .containsEntry("scale-10", 100);
    }

    @Test
    void quickLayoutHasOneWidePolicy() {
        PoolLayout quick = PoolLayout.of(500, 10);
        assertThat(quick.policies()).hasSize(10);
        assertThat(quick.policies().get(9).pools()).containsExactly(9, 0);
        assertThat(quick.expectedMatched()).containsEntry("scale-00", 0).containsEntry("scale-09", 100);
    }

    @Test
    void movingNodesChangesTheirPoolAndTheCounts() {
        PoolLayout moved = full.moving(10, 10, 11);
        List<Integer> changed = full.differences(moved);
        assertThat(changed).hasSize(10).allMatch(i -> i % 50 == 10);
        assertThat(changed.getFirst()).isEqualTo(10);
        changed.forEach(i -> assertThat(moved.poolOf(i)).isEqualTo(11));
        assertThat(moved.expectedMatched()).containsEntry("scale-10", 90).containsEntry("scale-11", 110);
        assertThat(moved.expectedLabels()).containsEntry(PoolLayout.nodeName(10), "scale-11");
        // Moving again takes the next ones, never a node already moved.
        assertThat(moved.differences(moved.moving(10, 10, 12))).doesNotContainAnyElementsOf(changed);
    }

    @Test
    void badShapesAreRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> PoolLayout.of(500, 15)).hasMessageContaining("multiple of 10");
        assertThatThrownBy(() -> PoolLayout.of(5, 10)).hasMessageContaining("at least one per pool");
        assertThatThrownBy(() -> PoolLayout.of(100, 10).moving(11, 3, 4)).hasMessageContaining("has only 10");
        assertThatThrownBy(() -> new PoolLayout(100, 10, Map.of(100, 1))).hasMessageContaining("outside");
    }
}
