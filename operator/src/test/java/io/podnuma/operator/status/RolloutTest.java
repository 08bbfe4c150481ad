package io.podnuma.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RolloutTest {

    static DaemonSet daemonSet(long generation, long observed, int desired, int updated, int available, int ready) {
        return new DaemonSetBuilder()
                .withNewMetadata()
                .withName("podnuma-agent-web")
                .withGeneration(generation)
                .endMetadata()
                .withNewStatus()
                .withObservedGeneration(observed)
                .withDesiredNumberScheduled(desired)
                .withCurrentNumberScheduled(desired)
                .withUpdatedNumberScheduled(updated)
                .withNumberAvailable(available)
                .withNumberReady(ready)
                .endStatus()
                .build();
    }

    static Stream<Arguments> rollouts() {
        return Stream.of(
                Arguments.of(
                        "all updated and available",
                        daemonSet(4, 4, 5, 5, 5, 5),
                        true,
                        "5 of 5 nodes updated and available"),
                Arguments.of(
                        "every pod ready but not every pod updated: old pods are ready too",
                        daemonSet(4, 4, 5, 3, 5, 5),
                        false,
                        "3 of 5 nodes updated, 5 available"),
                Arguments.of(
                        "updated but not yet available",
                        daemonSet(4, 4, 5, 5, 4, 5),
                        false,
                        "5 of 5 nodes updated, 4 available"),
                Arguments.of(
                        "the controller has not seen the new spec: its counts describe the old one",
                        daemonSet(5, 4, 5, 5, 5, 5),
                        false,
                        "the DaemonSet controller has not yet acted on generation 5 (it last saw 4)"),
                Arguments.of(
                        "no node to run on", daemonSet(1, 1, 0, 0, 0, 0), true, "0 of 0 nodes updated and available"),
                Arguments.of(
                        "just created, no status yet",
                        new DaemonSetBuilder()
                                .withNewMetadata()
                                .withGeneration(1L)
                                .endMetadata()
                                .build(),
                        false,
                        "the DaemonSet controller has not yet acted on generation 1 (it last saw 0)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rollouts")
    void aRolloutIsCompleteOnlyWhenObservedUpdatedAndAvailable(
            String name, DaemonSet daemonSet, boolean complete, String described) {
        Rollout r = Rollout.of(daemonSet);
        assertThat(r.complete()).isEqualTo(complete);
        assertThat(r.describe()).isEqualTo(described);
    }
}
