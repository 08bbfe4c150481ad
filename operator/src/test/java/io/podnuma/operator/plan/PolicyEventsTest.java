package io.podnuma.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PolicyEventsTest {

    private static Condition cond(String type, String status, String reason, String message) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .build();
    }

    private static NumaResourcePolicyStatus status(List<Condition> conditions, List<FailingNode> failing) {
        return new NumaResourcePolicyStatus(1L, conditions, 2, 0, 0, failing.size(), 0, 0, failing);
    }

    private static final Condition PROGRESSING = cond("Progressing", "True", "RolloutInProgress", "0 of 2");
    private static final Condition COMPLETE = cond("Progressing", "False", "RolloutComplete", "2 of 2");
    private static final Condition NO_CONFLICT = cond("Conflict", "False", "NoConflict", "none");
    private static final Condition CONFLICT_N3 =
            cond("Conflict", "True", "NodesGovernedByOthers", "n3 (governed by x)");
    private static final Condition CONFLICT_N4 =
            cond("Conflict", "True", "NodesGovernedByOthers", "n4 (governed by x)");
    private static final FailingNode N1_NOT_READY = new FailingNode("n1", "AgentNotReady", "no state");
    private static final FailingNode N1_DRIFT = new FailingNode("n1", "Drift", "drift");
    private static final FailingNode N2_NOT_READY = new FailingNode("n2", "AgentNotReady", "no state");
    private static final FailingNode N3_CONFLICT = new FailingNode("n3", "PolicyConflict", "governed by x");

    private static List<EventReason> reasons(
            Optional<NumaResourcePolicyStatus> before,
            NumaResourcePolicyStatus after,
            List<String> gained,
            Optional<String> rolled) {
        return PolicyEvents.of(new PolicyEvents.Change("p", before, after, gained, rolled)).stream()
                .map(PolicyEvent::reason)
                .toList();
    }

    @Test
    void theSameStatusAgainRecordsNothing() {
        NumaResourcePolicyStatus s = status(List.of(PROGRESSING, CONFLICT_N3), List.of(N1_NOT_READY, N3_CONFLICT));
        assertThat(reasons(Optional.of(s), s, List.of(), Optional.empty())).isEmpty();
    }

    @Test
    void aFirstReconcileAnnouncesTheAssignmentTheRolloutTheConflictAndTheFailures() {
        NumaResourcePolicyStatus after = status(List.of(PROGRESSING, CONFLICT_N3), List.of(N1_NOT_READY, N3_CONFLICT));
        List<PolicyEvent> events = PolicyEvents.of(
                new PolicyEvents.Change("p", Optional.empty(), after, List.of("n1", "n2"), Optional.of("sha256:abc")));
        assertThat(events)
                .extracting(PolicyEvent::reason)
                .containsExactly(
                        EventReason.NODES_ASSIGNED,
                        EventReason.ROLLOUT_STARTED,
                        EventReason.NODE_CONFLICT,
                        EventReason.NODE_DEGRADED);
        assertThat(events.get(0).message()).isEqualTo("labelled 2 nodes podnuma.io/policy=p: n1, n2");
        assertThat(events.get(1).message()).contains("sha256:abc");
        assertThat(events.get(2).message()).isEqualTo("n3 (governed by x)");
        assertThat(events.get(3).message()).startsWith("1 node failing: n1 (AgentNotReady)");
    }

    @Test
    void conflictIsAnnouncedWhenItBeginsAndWhenItsNodesChangeNotWhenItEnds() {
        NumaResourcePolicyStatus none = status(List.of(NO_CONFLICT), List.of());
        NumaResourcePolicyStatus n3 = status(List.of(CONFLICT_N3), List.of());
        NumaResourcePolicyStatus n4 = status(List.of(CONFLICT_N4), List.of());
        assertThat(reasons(Optional.of(none), n3, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_CONFLICT);
        assertThat(reasons(Optional.of(n3), n4, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_CONFLICT);
        assertThat(reasons(Optional.of(n3), none, List.of(), Optional.empty())).isEmpty();
    }

    @Test
    void nodesStartingToFailAreDegradedNodesThatStopAreRecoveredAndANewReasonCountsAsNew() {
        NumaResourcePolicyStatus ok = status(List.of(), List.of());
        NumaResourcePolicyStatus n1 = status(List.of(), List.of(N1_NOT_READY));
        NumaResourcePolicyStatus n1Drift = status(List.of(), List.of(N1_DRIFT));
        NumaResourcePolicyStatus n2 = status(List.of(), List.of(N2_NOT_READY));
        assertThat(reasons(Optional.of(ok), n1, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_DEGRADED);
        assertThat(reasons(Optional.of(n1), ok, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_RECOVERED);
        assertThat(reasons(Optional.of(n1), n1Drift, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_DEGRADED);
        assertThat(reasons(Optional.of(n1), n2, List.of(), Optional.empty()))
                .containsExactly(EventReason.NODE_DEGRADED, EventReason.NODE_RECOVERED);
    }

    @Test
    void nodesAnotherPolicyGovernsAreNotDegraded() {
        NumaResourcePolicyStatus ok = status(List.of(), List.of());
        NumaResourcePolicyStatus lost = status(List.of(), List.of(N3_CONFLICT));
        assertThat(reasons(Optional.of(ok), lost, List.of(), Optional.empty())).isEmpty();
        assertThat(reasons(Optional.of(lost), ok, List.of(), Optional.empty())).isEmpty();
    }

    @Test
    void theRolloutCompletesWhenProgressingTurnsFalse() {
        NumaResourcePolicyStatus running = status(List.of(PROGRESSING), List.of());
        NumaResourcePolicyStatus done = status(List.of(COMPLETE), List.of());
        assertThat(reasons(Optional.of(running), done, List.of(), Optional.empty()))
                .containsExactly(EventReason.ROLLOUT_COMPLETE);
        assertThat(reasons(Optional.of(done), done, List.of(), Optional.empty()))
                .isEmpty();
        assertThat(reasons(Optional.empty(), done, List.of(), Optional.empty())).isEmpty();
    }

    @Test
    void longNodeListsAreCutToAFewNamesAndACount() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(String.format("node-%04d", i));
        }
        PolicyEvent e = PolicyEvents.of(new PolicyEvents.Change(
                        "p", Optional.empty(), status(List.of(), List.of()), many, Optional.empty()))
                .get(0);
        assertThat(e.message())
                .isEqualTo("labelled 5000 nodes podnuma.io/policy=p: node-0000, node-0001, node-0002, node-0003,"
                        + " node-0004 and 4995 more");
    }
}
