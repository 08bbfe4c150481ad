package io.podnuma.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.operator.assign.Assignment;
import io.podnuma.operator.assign.NodeAssigner;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.assign.NodeSelector;
import io.podnuma.operator.assign.PolicyCandidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Builders for the status tests: policies, assignments, rollouts and NumaNodeStates as the agent writes them. */
final class StatusFixtures {

    static final String POLICY = "web";
    static final String HASH = "sha256:current";
    static final String OLD_HASH = "sha256:previous";
    static final Instant NOW = Instant.parse("2026-05-01T12:00:00.250Z");
    static final String NOW_TEXT = "2026-05-01T12:00:00Z";
    static final long GENERATION = 3;

    private StatusFixtures() {}

    static NumaResourcePolicy policy(NumaResourcePolicyStatus previous) {
        NumaResourcePolicy p = new NumaResourcePolicy(
                POLICY, new NumaResourcePolicySpec(new LabelSelector(), 0, null, null, null, null, null, null));
        p.getMetadata().setGeneration(GENERATION);
        p.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
        p.setStatus(previous);
        return p;
    }

    /** This policy selects {@code governed}; policy "other" (higher priority) wins {@code lost}. */
    static Assignment assignment(List<String> governed, List<String> lost) {
        List<NodeCandidate> nodes = new ArrayList<>();
        governed.forEach(n -> nodes.add(new NodeCandidate(n, Map.of("role", "web"))));
        lost.forEach(n -> nodes.add(new NodeCandidate(n, Map.of("role", "web", "gpu", "true"))));
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        return NodeAssigner.assign(
                List.of(
                        new PolicyCandidate(
                                POLICY,
                                "u1",
                                0,
                                t,
                                false,
                                NodeSelector.of(new LabelSelector(null, Map.of("role", "web")))),
                        new PolicyCandidate(
                                "other",
                                "u2",
                                5,
                                t,
                                false,
                                NodeSelector.of(new LabelSelector(null, Map.of("gpu", "true"))))),
                nodes);
    }

    static Assignment governs(String... nodes) {
        return assignment(List.of(nodes), List.of());
    }

    static List<String> names(String prefix, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(String.format("%s-%02d", prefix, i));
        }
        return out;
    }

    static Rollout complete(int nodes) {
        return new Rollout(2, 2, nodes, nodes, nodes);
    }

    static Observation observe(
            NumaResourcePolicy policy,
            Assignment a,
            Optional<Rollout> rollout,
            Map<String, NumaNodeStateStatus> states) {
        return new Observation(policy, a, rollout, states, HASH);
    }

    /** A NumaNodeState status, as the agent writes it. */
    static final class State {
        private String policy = POLICY;
        private String hash = HASH;
        private final Map<String, Condition> conditions = new TreeMap<>();
        private AgentError lastError;
        private int exclusive;
        private List<PodAllocation> allocations;
        private io.podnuma.crds.v1alpha1.nodestate.NodeTopology topology;

        /** Synced on the current configuration, kubelet compatible, no drift: a healthy agent. */
        static State healthy() {
            return new State()
                    .condition("Ready", "True", "Synced", "pods listed, 3 held")
                    .condition(
                            "KubeletConflict", "False", "KubeletManagersNone", "the kubelet runs no resource manager")
                    .condition("Drift", "False", "NoDrift", "every cpuset is as wanted")
                    .condition("Degraded", "False", "AsExpected", "no conflicts");
        }

        State condition(String type, String status, String reason, String message) {
            conditions.put(
                    type,
                    new ConditionBuilder()
                            .withType(type)
                            .withStatus(status)
                            .withReason(reason)
                            .withMessage(message)
                            .withLastTransitionTime("2026-04-01T00:00:00Z")
                            .build());
            return this;
        }

        State without(String type) {
            conditions.remove(type);
            return this;
        }

        State hash(String hash) {
            this.hash = hash;
            return this;
        }

        State policy(String policy) {
            this.policy = policy;
            return this;
        }

        State error(String reason, Instant at, String message) {
            lastError = new AgentError(at.toString(), reason, message);
            return this;
        }

        State topology(io.podnuma.crds.v1alpha1.nodestate.NodeTopology reported) {
            this.topology = reported;
            return this;
        }

        State exclusive(int cpus, List<PodAllocation> allocations) {
            this.exclusive = cpus;
            this.allocations = allocations;
            return this;
        }

        NumaNodeStateStatus build() {
            return new NumaNodeStateStatus(
                    policy,
                    hash,
                    topology,
                    "0",
                    "1-7",
                    exclusive,
                    allocations,
                    new ArrayList<>(conditions.values()),
                    lastError);
        }
    }

    static Map<String, NumaNodeStateStatus> healthy(List<String> nodes) {
        Map<String, NumaNodeStateStatus> out = new TreeMap<>();
        nodes.forEach(n -> out.put(n, State.healthy().build()));
        return out;
    }

    static Condition condition(NumaResourcePolicyStatus status, PolicyConditionType type) {
        return status.conditions().stream()
                .filter(c -> c.getType().equals(type.wire()))
                .findFirst()
                .orElseThrow();
    }

    /** "Status/Reason" of a condition, e.g. "True/AllNodesReady". */
    static String summary(NumaResourcePolicyStatus status, PolicyConditionType type) {
        Condition c = condition(status, type);
        return c.getStatus() + "/" + c.getReason();
    }
}
