package io.podnuma.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentRecordsTest {

    static final Map<String, String> CHECKPOINT = Map.of("u1", "ns/a", "u2", "ns/b");

    @Test
    void nothingLostWhenBothRecordsHoldEveryLivePodOfTheCheckpoint() {
        assertThat(AgentRecords.lostAfterConvergence(
                        CHECKPOINT, Set.of("ns/a", "ns/b", "other/agent"), Set.of("ns/a", "ns/b"), Set.of("u1", "u2")))
                .isEmpty();
    }

    @Test
    void aLivePodMissingFromARecordIsLostThere() {
        List<Violation> v = AgentRecords.lostAfterConvergence(
                CHECKPOINT, Set.of("ns/a"), Set.of("ns/a", "ns/b"), Set.of("u1", "u2"));
        assertThat(v).hasSize(1);
        assertThat(v.getFirst().kind()).isEqualTo(ViolationKind.ALLOCATION_LOST);
        assertThat(v.getFirst().toString())
                .isEqualTo("ALLOCATION_LOST pod u2: live and admitted, but missing from NUMA_NODE_STATE");
    }

    @Test
    void aPodThatNoLongerLivesIsNoLoss() {
        assertThat(AgentRecords.lostAfterConvergence(CHECKPOINT, Set.of("ns/a"), Set.of(), Set.of()))
                .isEmpty();
    }
}
