package io.podnuma.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.podnuma.crds.v1alpha1.ConditionStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import io.podnuma.operator.assign.PolicyNodes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Status = f(observation, now): every field of {@link NumaResourcePolicyStatus}.
 *
 * <ul>
 *   <li>{@code Progressing} is True until the rollout is complete ({@link Rollout#complete()}).
 *   <li>{@code Ready} is True only when the rollout is complete and every governed node is ready on the current
 *       configuration.
 *   <li>{@code Degraded} is True when a governed node fails; its reason is the most severe among them.
 *   <li>{@code Conflict} is True when other policies govern nodes this one selects.
 * </ul>
 *
 * A condition keeps its previous {@code lastTransitionTime} while its status stays the same, so the same observation
 * gives an equal status at any later time (unless an agent error ages out of the window).
 */
public final class PolicyStatusAggregator {

    /** The most failing nodes a status lists (the CRD's limit). */
    public static final int MAX_FAILING_NODES = 20;

    static final int MAX_NODE_MESSAGE = 1024;
    static final int MAX_CONDITION_MESSAGE = 4096;

    private PolicyStatusAggregator() {}

    public static NumaResourcePolicyStatus status(Observation observed, Instant now) {
        return status(observed, now, StatusSettings.DEFAULTS);
    }

    public static NumaResourcePolicyStatus status(Observation observed, Instant now, StatusSettings settings) {
        String name = observed.policy().getMetadata().getName();
        Long generation = observed.policy().getMetadata().getGeneration();
        PolicyNodes side = observed.assignment().of(name);
        boolean complete = observed.rollout().map(Rollout::complete).orElse(false);

        List<NodeAssessment> nodes = new ArrayList<>();
        for (String node : side.governed()) {
            nodes.add(NodeAssessment.of(
                    node,
                    Optional.ofNullable(observed.nodeStates().get(node)),
                    name,
                    Optional.ofNullable(observed.policy().getSpec()).map(spec -> spec.cpuManager()),
                    observed.configHash(),
                    complete,
                    now,
                    settings.errorWindow()));
        }
        List<NodeAssessment> failing =
                nodes.stream().filter(n -> n.failure().isPresent()).toList();
        int ready = (int) nodes.stream().filter(NodeAssessment::ready).count();

        Conditions conditions = new Conditions(previous(observed), generation, now);
        conditions.put(readyCondition(observed, side, nodes, ready, complete));
        conditions.put(progressing(observed.rollout()));
        conditions.put(degraded(nodes.size(), failing));
        conditions.put(conflict(side));

        return new NumaResourcePolicyStatus(
                generation,
                conditions.list(),
                nodes.size(),
                ready,
                (int) nodes.stream().filter(NodeAssessment::updated).count(),
                failing.size(),
                nodes.stream().mapToInt(NodeAssessment::exclusiveCpus).sum(),
                nodes.stream().mapToInt(NodeAssessment::podsPinned).sum(),
                failingNodes(failing, side));
    }

    /** A condition as decided, before its transition time is known. */
    record Decided(PolicyConditionType type, ConditionStatus status, Reason reason, String message) {}

    private static Decided readyCondition(
            Observation observed, PolicyNodes side, List<NodeAssessment> nodes, int ready, boolean complete) {
        if (nodes.isEmpty()) {
            String why = observed.policy().getMetadata().getDeletionTimestamp() != null
                    ? "the policy is being deleted"
                    : side.lost().isEmpty()
                            ? "its nodeSelector matches no node"
                            : "other policies govern the "
                                    + Listing.nodes(side.lost().size()) + " it selects";
            return decided(ConditionReason.NO_NODES_GOVERNED, "the policy governs no node: " + why);
        }
        if (!complete) {
            return decided(
                    ConditionReason.READY_ROLLOUT_IN_PROGRESS,
                    "the agent rollout is not complete: "
                            + observed.rollout().map(Rollout::describe).orElse("the DaemonSet does not exist yet"));
        }
        if (ready < nodes.size()) {
            List<String> notReady = nodes.stream()
                    .filter(n -> !n.ready())
                    .map(NodeAssessment::node)
                    .toList();
            return decided(
                    ConditionReason.NODES_NOT_READY,
                    notReady.size() + " of " + Listing.nodes(nodes.size()) + " not ready on the current configuration: "
                            + Listing.of(notReady));
        }
        return decided(
                ConditionReason.ALL_NODES_READY,
                "all " + Listing.nodes(nodes.size()) + " ready on the current configuration");
    }

    private static Decided progressing(Optional<Rollout> rollout) {
        if (rollout.isEmpty()) {
            return decided(ConditionReason.DAEMON_SET_PENDING, "the agent DaemonSet does not exist yet");
        }
        Rollout r = rollout.get();
        return r.complete()
                ? decided(ConditionReason.ROLLOUT_COMPLETE, r.describe())
                : decided(ConditionReason.ROLLOUT_IN_PROGRESS, r.describe());
    }

    private static Decided degraded(int governed, List<NodeAssessment> failing) {
        if (failing.isEmpty()) {
            return decided(ConditionReason.NO_FAILING_NODES, "no governed node reports a problem");
        }
        List<NodeAssessment> bySeverity = failing.stream()
                .sorted(Comparator.comparing(
                                (NodeAssessment n) -> n.failure().orElseThrow().reason())
                        .thenComparing(NodeAssessment::node))
                .toList();
        FailureReason worst = bySeverity.get(0).failure().orElseThrow().reason();
        List<String> named = bySeverity.stream()
                .map(n -> n.node() + " (" + n.failure().orElseThrow().reason().wire() + ")")
                .toList();
        return new Decided(
                PolicyConditionType.DEGRADED,
                ConditionStatus.TRUE,
                worst,
                failing.size() + " of " + Listing.nodes(governed) + " failing: " + Listing.of(named)
                        + "; see failingNodes and each node's NumaNodeState");
    }

    private static Decided conflict(PolicyNodes side) {
        if (side.lost().isEmpty()) {
            return decided(ConditionReason.NO_CONFLICT, "no other policy governs a node this policy selects");
        }
        List<String> named = side.lost().entrySet().stream()
                .map(e -> e.getKey() + " (governed by " + e.getValue() + ")")
                .toList();
        String nodes = Listing.of(named);
        return side.governed().isEmpty()
                ? decided(
                        ConditionReason.ALL_NODES_GOVERNED_BY_OTHERS,
                        "other policies govern all " + Listing.nodes(side.lost().size())
                                + " this policy selects (higher priority, or older): " + nodes)
                : decided(
                        ConditionReason.NODES_GOVERNED_BY_OTHERS,
                        "other policies govern " + side.lost().size() + " of the " + Listing.nodes(side.selected())
                                + " this policy selects (higher priority, or older): " + nodes);
    }

    private static Decided decided(ConditionReason reason, String message) {
        return new Decided(reason.type(), reason.status(), reason, message);
    }

    /** Governed nodes that fail and selected nodes another policy won, sorted by name, at most 20. */
    private static List<FailingNode> failingNodes(List<NodeAssessment> failing, PolicyNodes side) {
        List<FailingNode> out = new ArrayList<>();
        for (NodeAssessment n : failing) {
            NodeAssessment.Failure f = n.failure().orElseThrow();
            out.add(new FailingNode(n.node(), f.reason().wire(), Listing.cut(f.message(), MAX_NODE_MESSAGE)));
        }
        for (Map.Entry<String, String> lost : side.lost().entrySet()) {
            out.add(new FailingNode(
                    lost.getKey(),
                    FailureReason.POLICY_CONFLICT.wire(),
                    "selected, but governed by policy " + lost.getValue()
                            + " (higher priority, or older, or first by name)"));
        }
        out.sort(Comparator.comparing(FailingNode::node));
        return List.copyOf(out.subList(0, Math.min(out.size(), MAX_FAILING_NODES)));
    }

    private static List<Condition> previous(Observation observed) {
        NumaResourcePolicyStatus status = observed.policy().getStatus();
        return status == null || status.conditions() == null ? List.of() : status.conditions();
    }

    /** The conditions being built, each keeping its previous transition time while its status stays. */
    private static final class Conditions {
        private final List<Condition> previous;
        private final Long generation;
        private final String now;
        private final List<Condition> built = new ArrayList<>();

        Conditions(List<Condition> previous, Long generation, Instant now) {
            this.previous = previous;
            this.generation = generation;
            this.now = now.truncatedTo(ChronoUnit.SECONDS).toString();
        }

        void put(Decided d) {
            String since = previous.stream()
                    .filter(c -> d.type().wire().equals(c.getType()))
                    .filter(c -> d.status().wire().equals(c.getStatus()))
                    .map(Condition::getLastTransitionTime)
                    .filter(t -> t != null)
                    .findFirst()
                    .orElse(now);
            built.add(new ConditionBuilder()
                    .withType(d.type().wire())
                    .withStatus(d.status().wire())
                    .withReason(d.reason().wire())
                    .withMessage(Listing.cut(d.message(), MAX_CONDITION_MESSAGE))
                    .withObservedGeneration(generation)
                    .withLastTransitionTime(since)
                    .build());
        }

        List<Condition> list() {
            return List.copyOf(built);
        }
    }
}
