package io.podnuma.operator.plan;

import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import io.podnuma.operator.status.FailureReason;
import io.podnuma.operator.status.PolicyConditionType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Events a reconcile records: only transitions, found by comparing the status before and after it, so an unchanged
 * cluster records nothing however often it is reconciled.
 */
public final class PolicyEvents {

    private PolicyEvents() {}

    /** What changed in one reconcile. */
    public record Change(
            String policy,
            Optional<NumaResourcePolicyStatus> before,
            NumaResourcePolicyStatus after,
            List<String> nodesGained,
            Optional<String> rolledOutConfig) {
        public Change {
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(after, "after");
            nodesGained = List.copyOf(nodesGained);
            Objects.requireNonNull(rolledOutConfig, "rolledOutConfig");
        }
    }

    public static List<PolicyEvent> of(Change c) {
        List<PolicyEvent> events = new ArrayList<>();
        if (!c.nodesGained().isEmpty()) {
            events.add(new PolicyEvent(
                    EventReason.NODES_ASSIGNED,
                    "labelled " + Names.nodes(c.nodesGained().size()) + " podnuma.io/policy=" + c.policy() + ": "
                            + Names.of(c.nodesGained())));
        }
        c.rolledOutConfig()
                .ifPresent(hash -> events.add(new PolicyEvent(
                        EventReason.ROLLOUT_STARTED,
                        "rolling out agent configuration " + hash + " to the governed nodes")));

        Optional<Condition> conflictBefore = c.before().flatMap(s -> condition(s, PolicyConditionType.CONFLICT));
        Optional<Condition> conflictAfter = condition(c.after(), PolicyConditionType.CONFLICT);
        if (conflictAfter.map(PolicyEvents::isTrue).orElse(false)
                && !(conflictBefore.map(PolicyEvents::isTrue).orElse(false)
                        && Objects.equals(
                                conflictBefore.get().getMessage(),
                                conflictAfter.get().getMessage()))) {
            events.add(new PolicyEvent(
                    EventReason.NODE_CONFLICT, conflictAfter.get().getMessage()));
        }

        Map<String, FailingNode> failedBefore = failing(c.before());
        Map<String, FailingNode> failedAfter = failing(Optional.of(c.after()));
        List<String> degraded = new ArrayList<>();
        failedAfter.forEach((node, f) -> {
            FailingNode was = failedBefore.get(node);
            if (was == null || !was.reason().equals(f.reason())) {
                degraded.add(node + " (" + f.reason() + ")");
            }
        });
        if (!degraded.isEmpty()) {
            events.add(new PolicyEvent(
                    EventReason.NODE_DEGRADED,
                    Names.nodes(degraded.size()) + " failing: " + Names.of(degraded)
                            + "; see the policy's failingNodes and each node's NumaNodeState"));
        }
        List<String> recovered = failedBefore.keySet().stream()
                .filter(n -> !failedAfter.containsKey(n))
                .toList();
        if (!recovered.isEmpty()) {
            events.add(new PolicyEvent(
                    EventReason.NODE_RECOVERED,
                    Names.nodes(recovered.size()) + " no longer failing: " + Names.of(recovered)));
        }

        Optional<Condition> progressingBefore = c.before().flatMap(s -> condition(s, PolicyConditionType.PROGRESSING));
        Optional<Condition> progressingAfter = condition(c.after(), PolicyConditionType.PROGRESSING);
        if (progressingBefore.map(PolicyEvents::isTrue).orElse(false)
                && progressingAfter.map(p -> !isTrue(p)).orElse(false)) {
            events.add(new PolicyEvent(
                    EventReason.ROLLOUT_COMPLETE, progressingAfter.get().getMessage()));
        }
        return List.copyOf(events);
    }

    /** The nodes failing for their own reasons (not those another policy governs: Conflict reports them). */
    private static Map<String, FailingNode> failing(Optional<NumaResourcePolicyStatus> status) {
        Map<String, FailingNode> out = new TreeMap<>();
        status.map(NumaResourcePolicyStatus::failingNodes).orElse(List.of()).stream()
                .filter(f -> !FailureReason.POLICY_CONFLICT.wire().equals(f.reason()))
                .forEach(f -> out.put(f.node(), f));
        return out;
    }

    private static Optional<Condition> condition(NumaResourcePolicyStatus status, PolicyConditionType type) {
        return status.conditions() == null
                ? Optional.empty()
                : status.conditions().stream()
                        .filter(x -> type.wire().equals(x.getType()))
                        .findFirst();
    }

    private static boolean isTrue(Condition c) {
        return "True".equals(c.getStatus());
    }
}
