package io.podnuma.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.operator.assign.LabelChangeKind;
import io.podnuma.operator.plan.EventReason;
import io.podnuma.operator.plan.PolicyEvent;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.status.StatusSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PolicyStepsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private FakeCluster cluster;
    private PolicySteps steps;

    @BeforeEach
    void cluster() {
        cluster = new FakeCluster();
        steps = new PolicySteps(
                cluster,
                cluster,
                cluster,
                cluster,
                new ReconcileSettings(
                        AgentRollout.defaults("agent:1").toBuilder()
                                .namespace("ops")
                                .build(),
                        TIMEOUT,
                        false,
                        StatusSettings.DEFAULTS));
        cluster.node("n1", "pool", "a");
        cluster.node("n2", "pool", "a");
        cluster.node("n3", "pool", "b");
    }

    private NumaResourcePolicy policy(String name, String pool, int priority, int createdMinute) {
        NumaResourcePolicy p = new NumaResourcePolicy(
                name,
                new NumaResourcePolicySpec(
                        new LabelSelector(null, Map.of("pool", pool)), priority, null, null, null, null, null, null));
        p.getMetadata().setUid("uid-" + name);
        p.getMetadata().setGeneration(1L);
        p.getMetadata().setCreationTimestamp(T0.plusSeconds(60L * createdMinute).toString());
        cluster.policies.put(name, p);
        return p;
    }

    /** What the API server holds after the status write. */
    private static NumaResourcePolicy written(NumaResourcePolicy p, Optional<NumaResourcePolicyStatus> status) {
        status.ifPresent(p::setStatus);
        return p;
    }

    private List<EventReason> reasons() {
        return cluster.events.stream().map(PolicyEvent::reason).toList();
    }

    @Test
    void aNewPolicyLabelsItsNodesAppliesItsAgentsAndReportsAStatus() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        Optional<NumaResourcePolicyStatus> status = steps.reconcile(p, T0);

        assertThat(cluster.label("n1")).contains("web");
        assertThat(cluster.label("n2")).contains("web");
        assertThat(cluster.label("n3")).isEmpty();
        assertThat(cluster.applies).containsExactly("web");
        assertThat(status).hasValueSatisfying(s -> {
            assertThat(s.nodesMatched()).isEqualTo(2);
            assertThat(s.observedGeneration()).isEqualTo(1L);
        });
        assertThat(reasons()).containsExactly(EventReason.NODES_ASSIGNED, EventReason.ROLLOUT_STARTED);
    }

    @Test
    void aSecondReconcileWithNothingChangedWritesNothing() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        int events = cluster.events.size();

        Optional<NumaResourcePolicyStatus> again = steps.reconcile(p, T0.plusSeconds(90));

        assertThat(again).as("status unchanged: not written").isEmpty();
        assertThat(cluster.labelWrites).hasSize(2);
        assertThat(cluster.applies).hasSize(1);
        assertThat(cluster.events).hasSize(events);
    }

    @Test
    void theRolloutCompletingChangesTheStatusOnceAndIsAnnouncedOnce() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        cluster.rolledOut("web", 2);

        Optional<NumaResourcePolicyStatus> done = steps.reconcile(p, T0.plusSeconds(5));
        written(p, done);
        assertThat(done).isPresent();
        assertThat(reasons()).contains(EventReason.ROLLOUT_COMPLETE, EventReason.NODE_DEGRADED);
        int events = cluster.events.size();

        assertThat(steps.reconcile(p, T0.plusSeconds(10))).isEmpty();
        assertThat(cluster.events).hasSize(events);
    }

    @Test
    void aReconcileBeforeTheCacheShowsTheLastStatusAnnouncesNothingTwice() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        cluster.rolledOut("web", 2);
        assertThat(steps.reconcile(p, T0.plusSeconds(5))).isPresent();
        int events = cluster.events.size();
        assertThat(reasons()).contains(EventReason.ROLLOUT_COMPLETE);

        // The status write has not reached the informer: the same stale copy comes back.
        steps.reconcile(p, T0.plusSeconds(6));

        assertThat(cluster.events).as("no transition announced again").hasSize(events);
    }

    @Test
    void aSpecChangeAppliesANewTemplateAndAnnouncesTheRollout() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        NumaResourcePolicySpec s = p.getSpec();
        p.setSpec(new NumaResourcePolicySpec(
                s.nodeSelector(),
                s.priority(),
                s.topologyManager(),
                s.cpuManager(),
                s.memoryManager(),
                s.podLevelResources(),
                s.admission(),
                true));
        p.getMetadata().setGeneration(2L);

        steps.reconcile(p, T0.plusSeconds(5));

        assertThat(cluster.applies).containsExactly("web", "web");
        assertThat(reasons()).filteredOn(EventReason.ROLLOUT_STARTED::equals).hasSize(2);
    }

    @Test
    void theLoserOfANodeNeverWritesTheWinnersLabel() {
        NumaResourcePolicy high = policy("high", "a", 10, 5);
        NumaResourcePolicy low = policy("low", "a", 0, 0);
        written(high, steps.reconcile(high, T0));
        cluster.labelWrites.clear();
        cluster.events.clear();

        Optional<NumaResourcePolicyStatus> lowStatus = steps.reconcile(low, T0);

        assertThat(cluster.labelWrites).isEmpty();
        assertThat(lowStatus)
                .hasValueSatisfying(s -> assertThat(s.conditions())
                        .filteredOn(c -> "Conflict".equals(c.getType()))
                        .singleElement()
                        .satisfies(c -> assertThat(c.getMessage())
                                .contains("n1 (governed by high)")
                                .contains("n2 (governed by high)")));
        assertThat(reasons()).containsExactly(EventReason.ROLLOUT_STARTED, EventReason.NODE_CONFLICT);
    }

    @Test
    void aPolicyTakesItsNodesFromALowerOneByRelabellingOnlyThem() {
        NumaResourcePolicy low = policy("low", "a", 0, 0);
        written(low, steps.reconcile(low, T0));
        NumaResourcePolicy high = policy("high", "a", 10, 5);
        cluster.labelWrites.clear();

        steps.reconcile(high, T0);

        assertThat(cluster.labelWrites)
                .extracting(c -> c.node() + ":" + c.kind())
                .containsExactly("n1:" + LabelChangeKind.CHANGE, "n2:" + LabelChangeKind.CHANGE);
        assertThat(cluster.label("n1")).contains("high");
    }

    @Test
    void deletionRemovesTheLabelsThenWaitsForTheAgentsThenDeletesTheDependents() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        cluster.reporting("n1", "web");
        cluster.reporting("n2", "web");
        p.getMetadata().setDeletionTimestamp(T0.plusSeconds(60).toString());

        PolicySteps.Cleanup first = steps.cleanup(p, T0.plusSeconds(61));
        assertThat(cluster.label("n1")).isEmpty();
        assertThat(cluster.label("n2")).isEmpty();
        assertThat(first.released()).isFalse();
        assertThat(first.recheck()).isPresent();
        assertThat(cluster.deletes)
                .as("the agents must stay until they restored")
                .isEmpty();

        cluster.states.remove("n1");
        assertThat(steps.cleanup(p, T0.plusSeconds(70)).released()).isFalse();
        cluster.states.remove("n2");
        PolicySteps.Cleanup done = steps.cleanup(p, T0.plusSeconds(80));

        assertThat(done.released()).isTrue();
        assertThat(cluster.deletes).containsExactly("podnuma-agent-web");
        assertThat(reasons()).contains(EventReason.NODES_RELEASED).doesNotContain(EventReason.RESTORE_TIMED_OUT);
    }

    @Test
    void deletionHandsTheNodesToTheNextPolicy() {
        NumaResourcePolicy low = policy("low", "a", 0, 0);
        NumaResourcePolicy high = policy("high", "a", 10, 5);
        written(high, steps.reconcile(high, T0));
        high.getMetadata().setDeletionTimestamp(T0.plusSeconds(60).toString());

        assertThat(steps.cleanup(high, T0.plusSeconds(61)).released()).isTrue();

        assertThat(cluster.label("n1")).contains("low");
        assertThat(cluster.label("n2")).contains("low");
        assertThat(low.getStatus()).isNull();
    }

    @Test
    void deletionGivesUpAfterTheTimeoutWithAWarningNamingTheNodes() {
        NumaResourcePolicy p = policy("web", "a", 0, 0);
        written(p, steps.reconcile(p, T0));
        cluster.reporting("n2", "web");
        p.getMetadata().setDeletionTimestamp(T0.toString());

        assertThat(steps.cleanup(p, T0.plus(TIMEOUT).minusSeconds(1)).released())
                .isFalse();
        PolicySteps.Cleanup late = steps.cleanup(p, T0.plus(TIMEOUT));

        assertThat(late.released()).isTrue();
        assertThat(cluster.deletes).containsExactly("podnuma-agent-web");
        assertThat(cluster.events)
                .filteredOn(e -> e.reason() == EventReason.RESTORE_TIMED_OUT)
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("n2"));
    }

    @Test
    void aPolicyTheRenderRefusesWritesNothing() {
        NumaResourcePolicy p = policy("a-policy-name-far-too-long-to-name-its-agent-objects", "a", 0, 0);

        assertThatThrownBy(() -> steps.reconcile(p, T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot name its agents' objects");
        assertThat(cluster.labelWrites).isEmpty();
        assertThat(cluster.applies).isEmpty();
    }

    @Test
    void aMalformedOtherPolicyDoesNotStopThisOne() {
        NumaResourcePolicy broken = policy("broken", "a", 50, 0);
        broken.getMetadata().setCreationTimestamp(null);
        NumaResourcePolicy p = policy("web", "a", 0, 1);

        steps.reconcile(p, T0);

        assertThat(cluster.label("n1")).contains("web");
    }
}
