package io.podnuma.bench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConvergenceTest {

    private static PolicyState state(long generation, Long observed, int matched) {
        return new PolicyState(generation, new NumaResourcePolicyStatus(observed, null, matched, 0, 0, 0, 0, 0, null));
    }

    @Test
    void aPolicyConvergesWhenItsStatusDescribesItsGenerationAndCountsItsNodes() {
        Map<String, Integer> expected = Map.of("a", 100, "b", 0, "c", 90, "d", 5, "e", 1);
        Map<String, PolicyState> policies = Map.of(
                "a", state(1, 1L, 100),
                "b", state(2, 1L, 0),
                "c", state(1, 1L, 100),
                "d", new PolicyState(1L, null));
        assertThat(Convergence.pendingPolicies(policies, expected, 10))
                .containsExactlyInAnyOrder(
                        "b: observedGeneration 1 of 2", "c: nodesMatched 100 of 90", "d: no status", "e: missing");
        assertThat(Convergence.pendingPolicies(policies, expected, 2)).hasSize(2);
        assertThat(Convergence.pendingPolicies(Map.of("a", state(3, 3L, 100)), Map.of("a", 100), 3))
                .isEmpty();
    }

    @Test
    void wrongLabelsCountMissingOtherAndUnexpectedOnes() {
        Map<String, String> expected = Map.of("n1", "a", "n2", "a", "n3", "b");
        assertThat(Convergence.wrongLabels(Map.of("n1", "a", "n2", "a", "n3", "b"), expected))
                .isZero();
        assertThat(Convergence.wrongLabels(Map.of("n1", "b", "n3", "b", "n9", "a"), expected))
                .isEqualTo(3);
    }
}
