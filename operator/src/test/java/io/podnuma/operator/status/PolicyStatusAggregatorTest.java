package io.podnuma.operator.status;

import static io.podnuma.operator.status.PolicyConditionType.CONFLICT;
import static io.podnuma.operator.status.PolicyConditionType.DEGRADED;
import static io.podnuma.operator.status.PolicyConditionType.PROGRESSING;
import static io.podnuma.operator.status.PolicyConditionType.READY;
import static io.podnuma.operator.status.StatusFixtures.GENERATION;
import static io.podnuma.operator.status.StatusFixtures.HASH;
import static io.podnuma.operator.status.StatusFixtures.NOW;
import static io.podnuma.operator.status.StatusFixtures.NOW_TEXT;
import static io.podnuma.operator.status.StatusFixtures.OLD_HASH;
import static io.podnuma.operator.status.StatusFixtures.State;
import static io.podnuma.operator.status.StatusFixtures.assignment;
import static io.podnuma.operator.status.StatusFixtures.complete;
import static io.podnuma.operator.status.StatusFixtures.condition;
import static io.podnuma.operator.status.StatusFixtures.governs;
import static io.podnuma.operator.status.StatusFixtures.healthy;
import static io.podnuma.operator.status.StatusFixtures.names;
import static io.podnuma.operator.status.StatusFixtures.observe;
import static io.podnuma.operator.status.StatusFixtures.policy;
import static io.podnuma.operator.status.StatusFixtures.summary;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import io.podnuma.operator.assign.Assignment;
import io.podnuma.operator.assign.NodeAssigner;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.assign.PolicyCandidate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PolicyStatusAggregatorTest {

    private static NumaResourcePolicyStatus status(
            Assignment a, Optional<Rollout> rollout, Map<String, NumaNodeStateStatus> states) {
        return PolicyStatusAggregator.status(observe(policy(null), a, rollout, states), NOW);
    }

    @Test
    void everyNodeReadyOnACompleteRollout() {
        List<String> nodes = List.of("n1", "n2", "n3");
        NumaResourcePolicyStatus s = status(governs("n1", "n2", "n3"), Optional.of(complete(3)), healthy(nodes));

        assertThat(s.observedGeneration()).isEqualTo(GENERATION);
        assertThat(s.conditions())
                .extracting(Condition::getType)
                .containsExactly("Ready", "Progressing", "Degraded", "Conflict");
        assertThat(summary(s, READY)).isEqualTo("True/AllNodesReady");
        assertThat(condition(s, READY).getMessage()).isEqualTo("all 3 nodes ready on the current configuration");
        assertThat(summary(s, PROGRESSING)).isEqualTo("False/RolloutComplete");
        assertThat(condition(s, PROGRESSING).getMessage()).isEqualTo("3 of 3 nodes updated and available");
        assertThat(summary(s, DEGRADED)).isEqualTo("False/NoFailingNodes");
        assertThat(summary(s, CONFLICT)).isEqualTo("False/NoConflict");
        for (Condition c : s.conditions()) {
            assertThat(c.getObservedGeneration()).isEqualTo(GENERATION);
            assertThat(c.getLastTransitionTime()).isEqualTo(NOW_TEXT);
        }
        assertThat(List.of(s.nodesMatched(), s.nodesReady(), s.nodesUpdated(), s.nodesDegraded()))
                .containsExactly(3, 3, 3, 0);
        assertThat(s.failingNodes()).isEmpty();
    }

    @Test
    void midRolloutProgressingCountsTheUpdatedNodesAndNodesNotYetOnTheNewConfigAreNotFailing() {
        List<String> nodes = names("n", 5);
        Map<String, NumaNodeStateStatus> states = healthy(nodes);
        states.put("n-03", State.healthy().hash(OLD_HASH).build());
        states.put("n-04", State.healthy().hash(OLD_HASH).build());
        Rollout rollout = new Rollout(2, 2, 5, 3, 4);
        NumaResourcePolicyStatus s = status(assignment(nodes, List.of()), Optional.of(rollout), states);

        assertThat(summary(s, PROGRESSING)).isEqualTo("True/RolloutInProgress");
        assertThat(condition(s, PROGRESSING).getMessage()).isEqualTo("3 of 5 nodes updated, 4 available");
        assertThat(summary(s, READY)).isEqualTo("False/RolloutInProgress");
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("the agent rollout is not complete: 3 of 5 nodes updated, 4 available");
        assertThat(summary(s, DEGRADED)).isEqualTo("False/NoFailingNodes");
        assertThat(List.of(s.nodesMatched(), s.nodesReady(), s.nodesUpdated(), s.nodesDegraded()))
                .containsExactly(5, 3, 3, 0);
    }

    @Test
    void everyPodReadyButNotEveryPodUpdatedIsNotReady() {
        List<String> nodes = names("n", 5);
        // What an anchor on numberReady alone would call done: every pod ready, two still on the old template.
        Rollout rollout = Rollout.of(RolloutTest.daemonSet(7, 7, 5, 3, 5, 5));
        NumaResourcePolicyStatus s = status(assignment(nodes, List.of()), Optional.of(rollout), healthy(nodes));
        assertThat(summary(s, READY)).isEqualTo("False/RolloutInProgress");
        assertThat(summary(s, PROGRESSING)).isEqualTo("True/RolloutInProgress");
    }

    @Test
    void aControllerBehindTheGenerationIsNotComplete() {
        List<String> nodes = names("n", 2);
        Rollout rollout = Rollout.of(RolloutTest.daemonSet(8, 7, 2, 2, 2, 2));
        NumaResourcePolicyStatus s = status(assignment(nodes, List.of()), Optional.of(rollout), healthy(nodes));
        assertThat(summary(s, READY)).isEqualTo("False/RolloutInProgress");
        assertThat(condition(s, PROGRESSING).getMessage())
                .isEqualTo("the DaemonSet controller has not yet acted on generation 8 (it last saw 7)");
    }

    @Test
    void noDaemonSetYet() {
        NumaResourcePolicyStatus s = status(governs("n1"), Optional.empty(), Map.of());
        assertThat(summary(s, PROGRESSING)).isEqualTo("True/DaemonSetPending");
        assertThat(summary(s, READY)).isEqualTo("False/RolloutInProgress");
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("the agent rollout is not complete: the DaemonSet does not exist yet");
        assertThat(summary(s, DEGRADED)).isEqualTo("False/NoFailingNodes");
        assertThat(s.nodesMatched()).isEqualTo(1);
    }

    static Stream<Arguments> nodeFailures() {
        Duration old = Duration.ofMinutes(11);
        Duration recent = Duration.ofMinutes(2);
        return Stream.of(
                Arguments.of(
                        "no NumaNodeState",
                        null,
                        "AgentNotReady",
                        "no NumaNodeState: the node's agent has not reported"),
                Arguments.of(
                        "no Ready condition yet",
                        State.healthy().without("Ready"),
                        "AgentNotReady",
                        "the agent has not finished its first sync (no Ready condition)"),
                Arguments.of(
                        "Ready False",
                        State.healthy().condition("Ready", "False", "Syncing", "listing pods"),
                        "AgentNotReady",
                        "Ready is False: listing pods"),
                Arguments.of(
                        "the kubelet's managers are active",
                        State.healthy()
                                .condition(
                                        "KubeletConflict",
                                        "True",
                                        "KubeletManagerActive",
                                        "cpuManagerPolicy is static in /var/lib/kubelet/config.yaml"),
                        "KubeletConflict",
                        "cpuManagerPolicy is static in /var/lib/kubelet/config.yaml"),
                Arguments.of(
                        "the kubelet's files cannot be read",
                        State.healthy()
                                .condition(
                                        "KubeletConflict",
                                        "Unknown",
                                        "KubeletFileUnreadable",
                                        "cannot read config.yaml"),
                        "KubeletConflict",
                        "cannot read config.yaml"),
                Arguments.of(
                        "a recent cpuset write failure",
                        State.healthy().error("CpusetWriteFailed", NOW.minus(recent), "cpuset.cpus of pod a/b: EBUSY"),
                        "CpusetWriteFailed",
                        NOW.minus(recent) + ": cpuset.cpus of pod a/b: EBUSY"),
                Arguments.of(
                        "an older configuration after the rollout",
                        State.healthy().hash(OLD_HASH),
                        "StaleConfig",
                        "the agent runs configuration sha256:previous, the current one is sha256:current"),
                Arguments.of(
                        "another policy in force after the rollout",
                        State.healthy().policy("batch"),
                        "StaleConfig",
                        "the agent applies policy batch, not web"),
                Arguments.of(
                        "running pods conflict with the policy",
                        State.healthy().condition("Degraded", "True", "PolicyConflict", "pod a/b holds reserved CPU 0"),
                        "RunningPodsConflict",
                        "pod a/b holds reserved CPU 0"),
                Arguments.of(
                        "drift found and repaired",
                        State.healthy().condition("Drift", "True", "DriftRepaired", "2 cpusets written back"),
                        "Drift",
                        "2 cpusets written back"),
                Arguments.of(
                        "a recent other error",
                        State.healthy().error("CheckpointWriteFailed", NOW.minus(recent), "disk full"),
                        "AgentError",
                        "CheckpointWriteFailed at " + NOW.minus(recent) + ": disk full"),
                Arguments.of(
                        "several problems: the most severe is listed, the others named",
                        State.healthy()
                                .condition("Drift", "True", "DriftRepaired", "2 cpusets written back")
                                .condition("KubeletConflict", "True", "KubeletManagerActive", "static cpu manager"),
                        "KubeletConflict",
                        "static cpu manager (also Drift)"),
                Arguments.of(
                        "an old cpuset failure",
                        State.healthy().error("CpusetWriteFailed", NOW.minus(old), "x"),
                        null,
                        null),
                Arguments.of(
                        "an old other error", State.healthy().error("InternalError", NOW.minus(old), "x"), null, null),
                Arguments.of("a healthy agent", State.healthy(), null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeFailures")
    void eachNodeProblemHasItsReason(String name, State state, String reason, String message) {
        Map<String, NumaNodeStateStatus> states = healthy(List.of("ok"));
        if (state != null) {
            states.put("sick", state.build());
        }
        NumaResourcePolicyStatus s = status(governs("ok", "sick"), Optional.of(complete(2)), states);
        if (reason == null) {
            assertThat(s.failingNodes()).isEmpty();
            assertThat(summary(s, DEGRADED)).isEqualTo("False/NoFailingNodes");
            assertThat(s.nodesDegraded()).isZero();
            return;
        }
        assertThat(s.failingNodes()).containsExactly(new FailingNode("sick", reason, message));
        assertThat(summary(s, DEGRADED)).isEqualTo("True/" + reason);
        assertThat(condition(s, DEGRADED).getMessage())
                .isEqualTo(
                        "1 of 2 nodes failing: sick (" + reason + "); see failingNodes and each node's NumaNodeState");
        assertThat(s.nodesDegraded()).isEqualTo(1);
    }

    static Stream<Arguments> readiness() {
        return Stream.of(
                Arguments.of("healthy", State.healthy(), true, true),
                Arguments.of("another hash", State.healthy().hash(OLD_HASH), false, false),
                Arguments.of("another policy", State.healthy().policy("batch"), false, false),
                Arguments.of("not synced", State.healthy().without("Ready"), true, false),
                Arguments.of(
                        "kubelet conflict",
                        State.healthy().condition("KubeletConflict", "True", "KubeletManagerActive", "m"),
                        true,
                        false),
                Arguments.of(
                        "kubelet not checked",
                        State.healthy().condition("KubeletConflict", "False", "NotChecked", "m"),
                        true,
                        true),
                Arguments.of(
                        "drift repaired: still ready",
                        State.healthy().condition("Drift", "True", "DriftRepaired", "m"),
                        true,
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readiness")
    void updatedAndReadyCounters(String name, State state, boolean updated, boolean ready) {
        NumaResourcePolicyStatus s = status(governs("n1"), Optional.of(complete(1)), Map.of("n1", state.build()));
        assertThat(s.nodesUpdated()).isEqualTo(updated ? 1 : 0);
        assertThat(s.nodesReady()).isEqualTo(ready ? 1 : 0);
        assertThat(summary(s, READY)).isEqualTo(ready ? "True/AllNodesReady" : "False/NodesNotReady");
    }

    @Test
    void notReadyNodesAreNamed() {
        List<String> nodes = names("n", 8);
        Map<String, NumaNodeStateStatus> states = healthy(nodes.subList(0, 1));
        NumaResourcePolicyStatus s = status(assignment(nodes, List.of()), Optional.of(complete(8)), states);
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("7 of 8 nodes not ready on the current configuration: n-01, n-02, n-03, n-04, n-05 and 2"
                        + " more");
    }

    @Test
    void degradedCarriesTheMostSevereReasonAndListsTheFirstNodesBySeverity() {
        Map<String, NumaNodeStateStatus> states = healthy(List.of("a", "b", "c"));
        states.put(
                "a",
                State.healthy().condition("Drift", "True", "DriftRepaired", "m").build());
        states.put(
                "c",
                State.healthy()
                        .condition("KubeletConflict", "True", "KubeletManagerActive", "m")
                        .build());
        NumaResourcePolicyStatus s = status(governs("a", "b", "c", "d"), Optional.of(complete(4)), states);
        assertThat(summary(s, DEGRADED)).isEqualTo("True/KubeletConflict");
        assertThat(condition(s, DEGRADED).getMessage())
                .isEqualTo("3 of 4 nodes failing: c (KubeletConflict), d (AgentNotReady), a (Drift); see failingNodes"
                        + " and each node's NumaNodeState");
        assertThat(s.failingNodes()).extracting(FailingNode::node).containsExactly("a", "c", "d");
    }

    @Test
    void lostNodesMakeConflictAndAreListedAsPolicyConflict() {
        Assignment a = assignment(List.of("n1", "n2"), List.of("g1", "g2"));
        NumaResourcePolicyStatus s = status(a, Optional.of(complete(2)), healthy(List.of("n1", "n2")));
        assertThat(summary(s, CONFLICT)).isEqualTo("True/NodesGovernedByOthers");
        assertThat(condition(s, CONFLICT).getMessage())
                .isEqualTo("other policies govern 2 of the 4 nodes this policy selects (higher priority, or older):"
                        + " g1 (governed by other), g2 (governed by other)");
        assertThat(s.failingNodes())
                .containsExactly(
                        new FailingNode(
                                "g1",
                                "PolicyConflict",
                                "selected, but governed by policy other (higher priority, or older, or first by name)"),
                        new FailingNode(
                                "g2",
                                "PolicyConflict",
                                "selected, but governed by policy other (higher priority, or older, or first by name)"));
        // Lost nodes are not governed: they neither count as matched nor make the policy Degraded.
        assertThat(s.nodesMatched()).isEqualTo(2);
        assertThat(s.nodesDegraded()).isZero();
        assertThat(summary(s, DEGRADED)).isEqualTo("False/NoFailingNodes");
        assertThat(summary(s, READY)).isEqualTo("True/AllNodesReady");
    }

    @Test
    void aPolicyThatLostEveryNodeGovernsNothingBecauseOfConflicts() {
        Assignment a = assignment(List.of(), names("g", 7));
        NumaResourcePolicyStatus s = status(a, Optional.of(complete(0)), Map.of());
        assertThat(summary(s, CONFLICT)).isEqualTo("True/AllNodesGovernedByOthers");
        assertThat(condition(s, CONFLICT).getMessage())
                .isEqualTo("other policies govern all 7 nodes this policy selects (higher priority, or older): g-00"
                        + " (governed by other), g-01 (governed by other), g-02 (governed by other), g-03 (governed"
                        + " by other), g-04 (governed by other) and 2 more");
        assertThat(summary(s, READY)).isEqualTo("False/NoNodesGoverned");
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("the policy governs no node: other policies govern the 7 nodes it selects");
        assertThat(s.nodesMatched()).isZero();
    }

    @Test
    void aPolicyBeingDeletedGovernsNothing() {
        NumaResourcePolicy deleting = policy(null);
        deleting.getMetadata().setDeletionTimestamp("2026-05-01T11:00:00Z");
        Assignment a =
                NodeAssigner.assign(List.of(PolicyCandidate.of(deleting)), List.of(new NodeCandidate("n1", Map.of())));
        NumaResourcePolicyStatus s = PolicyStatusAggregator.status(
                observe(deleting, a, Optional.of(complete(0)), healthy(List.of("n1"))), NOW);
        assertThat(summary(s, READY)).isEqualTo("False/NoNodesGoverned");
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("the policy governs no node: the policy is being deleted");
        assertThat(summary(s, CONFLICT)).isEqualTo("False/NoConflict");
        assertThat(List.of(s.nodesMatched(), s.exclusiveCpusAllocated(), s.podsPinned()))
                .containsExactly(0, 0, 0);
    }

    @Test
    void aSelectorMatchingNothing() {
        NumaResourcePolicyStatus s = status(governs(), Optional.of(complete(0)), Map.of());
        assertThat(summary(s, READY)).isEqualTo("False/NoNodesGoverned");
        assertThat(condition(s, READY).getMessage())
                .isEqualTo("the policy governs no node: its nodeSelector matches no node");
        assertThat(summary(s, CONFLICT)).isEqualTo("False/NoConflict");
        assertThat(summary(s, PROGRESSING)).isEqualTo("False/RolloutComplete");
    }

    @Test
    void atMostTwentyFailingNodesSortedByName() {
        List<String> governed = names("n", 25);
        List<String> lost = names("g", 5);
        NumaResourcePolicyStatus s = status(assignment(governed, lost), Optional.of(complete(25)), Map.of());
        assertThat(s.failingNodes()).hasSize(PolicyStatusAggregator.MAX_FAILING_NODES);
        List<String> expected = new ArrayList<>(lost);
        expected.addAll(governed.subList(0, 15));
        assertThat(s.failingNodes()).extracting(FailingNode::node).containsExactlyElementsOf(expected);
        assertThat(s.nodesDegraded()).isEqualTo(25);
        assertThat(condition(s, DEGRADED).getMessage()).startsWith("25 of 25 nodes failing: n-00 (AgentNotReady)");
    }

    @Test
    void aLongAgentMessageIsCutToTheApiLimit() {
        String longMessage = "x".repeat(5000);
        Map<String, NumaNodeStateStatus> states = Map.of(
                "n1",
                State.healthy()
                        .condition("Drift", "True", "DriftRepaired", longMessage)
                        .build());
        NumaResourcePolicyStatus s = status(governs("n1"), Optional.of(complete(1)), states);
        assertThat(s.failingNodes().get(0).message()).hasSize(1024).endsWith("…");
    }

    @Test
    void exclusiveCpusAndPinnedPodsAreSummedOverTheGovernedNodes() {
        PodAllocation bubble = new PodAllocation("ns", "bubble", "u1", "2-5", List.of(0), null, List.of());
        PodAllocation exclusive = new PodAllocation(
                "ns",
                "exclusive",
                "u2",
                null,
                List.of(0),
                null,
                List.of(new ContainerAllocation("app", AssignmentType.EXCLUSIVE, "6-7", List.of(0), null)));
        PodAllocation memoryOnly = new PodAllocation(
                "ns", "memory", "u3", null, List.of(1), Map.of("memory", new Quantity("1Gi")), List.of());
        PodAllocation shared = new PodAllocation(
                "ns",
                "shared",
                "u4",
                null,
                null,
                null,
                List.of(new ContainerAllocation("app", AssignmentType.NODE_SHARED, "0-1", null, null)));
        Map<String, NumaNodeStateStatus> states = new TreeMap<>();
        states.put(
                "n1",
                State.healthy().exclusive(6, List.of(bubble, exclusive, shared)).build());
        states.put("n2", State.healthy().exclusive(2, List.of(memoryOnly)).build());
        // A node this policy does not govern is not counted.
        states.put(
                "elsewhere",
                State.healthy().exclusive(32, List.of(bubble, exclusive)).build());
        NumaResourcePolicyStatus s = status(governs("n1", "n2"), Optional.of(complete(2)), states);
        assertThat(s.exclusiveCpusAllocated()).isEqualTo(8);
        assertThat(s.podsPinned()).isEqualTo(3);
    }

    @Test
    void theSameObservationLaterGivesAnEqualStatus() {
        List<String> nodes = List.of("n1", "n2");
        Map<String, NumaNodeStateStatus> states = healthy(nodes);
        states.put(
                "n2",
                State.healthy().condition("Drift", "True", "DriftRepaired", "m").build());
        Assignment a = assignment(nodes, List.of("g1"));
        NumaResourcePolicyStatus first =
                PolicyStatusAggregator.status(observe(policy(null), a, Optional.of(complete(2)), states), NOW);
        NumaResourcePolicyStatus again = PolicyStatusAggregator.status(
                observe(policy(first), a, Optional.of(complete(2)), states), NOW.plus(Duration.ofHours(3)));
        assertThat(again).isEqualTo(first);
    }

    @Test
    void aConditionThatChangesStatusGetsANewTransitionTimeTheOthersKeepTheirs() {
        List<String> nodes = List.of("n1", "n2");
        Assignment a = assignment(nodes, List.of());
        NumaResourcePolicyStatus rolling = PolicyStatusAggregator.status(
                observe(policy(null), a, Optional.of(new Rollout(2, 2, 2, 1, 1)), healthy(nodes)), NOW);
        Instant later = NOW.plus(Duration.ofMinutes(5));
        NumaResourcePolicyStatus done = PolicyStatusAggregator.status(
                observe(policy(rolling), a, Optional.of(complete(2)), healthy(nodes)), later);
        String laterText = later.truncatedTo(ChronoUnit.SECONDS).toString();
        assertThat(condition(done, READY).getLastTransitionTime()).isEqualTo(laterText);
        assertThat(condition(done, PROGRESSING).getLastTransitionTime()).isEqualTo(laterText);
        assertThat(condition(done, DEGRADED).getLastTransitionTime()).isEqualTo(NOW_TEXT);
        assertThat(condition(done, CONFLICT).getLastTransitionTime()).isEqualTo(NOW_TEXT);
    }

    @Test
    void anAgentErrorAgesOutOfTheWindow() {
        Map<String, NumaNodeStateStatus> states = Map.of(
                "n1", State.healthy().error("CpusetWriteFailed", NOW, "EBUSY").build());
        Observation observation = observe(policy(null), governs("n1"), Optional.of(complete(1)), states);
        StatusSettings window = new StatusSettings(Duration.ofMinutes(1));
        assertThat(PolicyStatusAggregator.status(observation, NOW.plusSeconds(59), window)
                        .nodesDegraded())
                .isEqualTo(1);
        assertThat(PolicyStatusAggregator.status(observation, NOW.plusSeconds(60), window)
                        .nodesDegraded())
                .isZero();
    }

    @Test
    void theConfigHashIsCompared() {
        NumaResourcePolicyStatus s = status(
                governs("n1"),
                Optional.of(complete(1)),
                Map.of("n1", State.healthy().hash(HASH).build()));
        assertThat(s.nodesUpdated()).isEqualTo(1);
        NumaResourcePolicyStatus other = PolicyStatusAggregator.status(
                new Observation(
                        policy(null),
                        governs("n1"),
                        Optional.of(complete(1)),
                        Map.of("n1", State.healthy().hash(HASH).build()),
                        "sha256:next"),
                NOW);
        assertThat(other.nodesUpdated()).isZero();
    }
}
