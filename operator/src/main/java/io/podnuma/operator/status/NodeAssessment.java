package io.podnuma.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.crds.v1alpha1.ConditionStatus;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.NumaNode;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one governed node's NumaNodeState says about it, against the policy's current configuration.
 *
 * @param updated the agent reports this policy and the current config hash
 * @param ready updated, its Ready condition is True and the kubelet leaves the writing to it
 * @param failure the most severe problem, if any, with a message
 * @param exclusiveCpus the CPUs its pods hold exclusively
 * @param podsPinned the pods with pinned CPUs or memory
 */
public record NodeAssessment(
        String node, boolean updated, boolean ready, Optional<Failure> failure, int exclusiveCpus, int podsPinned) {

    /** A node's problem, as failingNodes lists it. */
    public record Failure(FailureReason reason, String message) {
        public Failure {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }
    }

    /** The agent's Degraded condition type (node-agent report.ConditionType.DEGRADED). */
    static final String AGENT_DEGRADED = "Degraded";

    /** The lastError reason the agent gives a failed cpuset or mems write (node-agent AgentErrorReason). */
    static final String CPUSET_WRITE_FAILED = "CpusetWriteFailed";

    /**
     * Assesses a governed node.
     *
     * @param state the node's NumaNodeState status; empty when the agent has not written one
     * @param rolloutComplete while the rollout runs, a node not yet on the current configuration is the rollout's
     *     business (Progressing), not a failure: it is not reported as AgentNotReady or StaleConfig
     * @param errorWindow how long a lastError counts: the agent keeps its last error until another replaces it
     */
    static NodeAssessment of(
            String node,
            Optional<NumaNodeStateStatus> state,
            String policy,
            Optional<CpuManager> cpuManager,
            String configHash,
            boolean rolloutComplete,
            Instant now,
            Duration errorWindow) {
        if (state.isEmpty()) {
            Optional<Failure> failure = rolloutComplete
                    ? Optional.of(new Failure(
                            FailureReason.AGENT_NOT_READY, "no NumaNodeState: the node's agent has not reported"))
                    : Optional.empty();
            return new NodeAssessment(node, false, false, failure, 0, 0);
        }
        NumaNodeStateStatus s = state.get();
        boolean updated = policy.equals(s.policy()) && configHash.equals(s.configHash());
        Map<String, Condition> conditions = byType(s.conditions());
        Optional<Condition> ready = Optional.ofNullable(conditions.get(NumaNodeStateStatus.CONDITION_READY));
        boolean agentReady = ready.filter(c -> is(c, ConditionStatus.TRUE)).isPresent();
        // Unknown means the kubelet's files could not be read: the agent then writes nothing either.
        Optional<Condition> kubelet = Optional.ofNullable(
                        conditions.get(NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT))
                .filter(c -> !is(c, ConditionStatus.FALSE));
        Optional<AgentError> error = recent(s.lastError(), now, errorWindow);
        boolean cpusetFailed =
                error.filter(e -> CPUSET_WRITE_FAILED.equals(e.reason())).isPresent();

        List<Failure> failures = new ArrayList<>();
        cpuManager.flatMap(cpu -> reservationMissing(cpu, s.topology())).ifPresent(failures::add);
        kubelet.ifPresent(c -> failures.add(new Failure(
                FailureReason.KUBELET_CONFLICT, said(c, "the kubelet's own resource managers are active"))));
        if (!agentReady && (rolloutComplete || updated)) {
            failures.add(new Failure(
                    FailureReason.AGENT_NOT_READY,
                    ready.map(c -> "Ready is " + c.getStatus() + ": " + said(c, "no message"))
                            .orElse("the agent has not finished its first sync (no Ready condition)")));
        }
        if (cpusetFailed) {
            AgentError e = error.get();
            failures.add(new Failure(FailureReason.CPUSET_WRITE_FAILED, e.time() + ": " + e.message()));
        }
        if (!updated && rolloutComplete) {
            failures.add(new Failure(FailureReason.STALE_CONFIG, stale(s, policy, configHash)));
        }
        trueCondition(conditions, AGENT_DEGRADED)
                .ifPresent(c -> failures.add(new Failure(
                        FailureReason.RUNNING_PODS_CONFLICT, said(c, "running pods conflict with the policy"))));
        trueCondition(conditions, NumaNodeStateStatus.CONDITION_DRIFT)
                .ifPresent(c -> failures.add(
                        new Failure(FailureReason.DRIFT, said(c, "cpusets were changed behind the agent's back"))));
        if (error.isPresent() && !cpusetFailed) {
            AgentError e = error.get();
            failures.add(new Failure(FailureReason.AGENT_ERROR, e.reason() + " at " + e.time() + ": " + e.message()));
        }
        return new NodeAssessment(
                node,
                updated,
                updated && agentReady && kubelet.isEmpty(),
                worst(failures),
                Objects.requireNonNullElse(s.exclusiveCpus(), 0),
                pinned(s.allocations()));
    }

    /**
     * A reservation the node cannot carry: CPUs its topology does not list, or a count that leaves it no CPU. Nothing
     * is said without a reported topology: the operator does not guess a node's CPUs.
     */
    static Optional<Failure> reservationMissing(CpuManager cpu, NodeTopology topology) {
        if (topology == null
                || topology.numaNodes() == null
                || topology.numaNodes().isEmpty()) {
            return Optional.empty();
        }
        SortedSet<Integer> onNode = new TreeSet<>();
        for (NumaNode n : topology.numaNodes()) {
            onNode.addAll(CpuIds.parse(n.cpus()));
        }
        if (cpu.reservedCpus() != null && !cpu.reservedCpus().isBlank()) {
            SortedSet<Integer> missing = CpuIds.parse(cpu.reservedCpus());
            missing.removeAll(onNode);
            if (!missing.isEmpty()) {
                return Optional.of(new Failure(
                        FailureReason.RESERVED_CPUS_NOT_ON_NODE,
                        "spec.cpuManager.reservedCpus \"" + cpu.reservedCpus() + "\" names CPUs "
                                + CpuIds.format(missing) + " this node does not have (its CPUs: "
                                + CpuIds.format(onNode) + "); list CPUs every selected node has, or use"
                                + " reservedCpuCount"));
            }
        }
        if (cpu.reservedCpuCount() != null && cpu.reservedCpuCount() >= onNode.size()) {
            return Optional.of(new Failure(
                    FailureReason.RESERVED_CPUS_NOT_ON_NODE,
                    "spec.cpuManager.reservedCpuCount " + cpu.reservedCpuCount() + " reserves every CPU of this node"
                            + " (it has " + onNode.size() + "): nothing is left for pods"));
        }
        return Optional.empty();
    }

    /** The most severe failure, its message naming the others' reasons. */
    private static Optional<Failure> worst(List<Failure> failures) {
        if (failures.isEmpty()) {
            return Optional.empty();
        }
        List<Failure> sorted =
                failures.stream().sorted(Comparator.comparing(Failure::reason)).toList();
        Failure first = sorted.get(0);
        if (sorted.size() == 1) {
            return Optional.of(first);
        }
        String others = String.join(
                ", ",
                sorted.subList(1, sorted.size()).stream()
                        .map(f -> f.reason().wire())
                        .toList());
        return Optional.of(new Failure(first.reason(), first.message() + " (also " + others + ")"));
    }

    private static String stale(NumaNodeStateStatus s, String policy, String configHash) {
        if (!policy.equals(s.policy())) {
            return "the agent applies policy " + (s.policy() == null ? "(none)" : s.policy()) + ", not " + policy;
        }
        return "the agent runs configuration " + (s.configHash() == null ? "(none)" : s.configHash())
                + ", the current one is " + configHash;
    }

    private static Optional<AgentError> recent(AgentError error, Instant now, Duration window) {
        if (error == null || error.time() == null) {
            return Optional.empty();
        }
        try {
            Instant at = Instant.parse(error.time());
            return at.isAfter(now.minus(window)) ? Optional.of(error) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty(); // the agent writes RFC 3339; an unreadable time cannot be placed in the window
        }
    }

    /** Pods with a bubble, pinned memory, or a container with its own CPUs or memory. */
    private static int pinned(List<PodAllocation> allocations) {
        if (allocations == null) {
            return 0;
        }
        int count = 0;
        for (PodAllocation pod : allocations) {
            if (notEmpty(pod.cpus()) || notEmpty(pod.memory())) {
                count++;
            } else if (pod.containers() != null && pod.containers().stream().anyMatch(NodeAssessment::pinned)) {
                count++;
            }
        }
        return count;
    }

    private static boolean pinned(ContainerAllocation c) {
        return c.assignment() == AssignmentType.EXCLUSIVE || notEmpty(c.memory());
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    private static boolean notEmpty(Map<?, ?> m) {
        return m != null && !m.isEmpty();
    }

    private static Optional<Condition> trueCondition(Map<String, Condition> conditions, String type) {
        return Optional.ofNullable(conditions.get(type)).filter(c -> is(c, ConditionStatus.TRUE));
    }

    private static boolean is(Condition c, ConditionStatus status) {
        return status.wire().equals(c.getStatus());
    }

    private static String said(Condition c, String otherwise) {
        return c.getMessage() == null || c.getMessage().isBlank() ? otherwise : c.getMessage();
    }

    private static Map<String, Condition> byType(List<Condition> conditions) {
        Map<String, Condition> out = new TreeMap<>();
        if (conditions != null) {
            conditions.forEach(c -> out.put(c.getType(), c));
        }
        return out;
    }
}
