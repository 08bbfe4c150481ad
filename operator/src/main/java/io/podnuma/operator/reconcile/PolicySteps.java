package io.podnuma.operator.reconcile;

import io.fabric8.kubernetes.api.model.Node;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.operator.assign.Assignment;
import io.podnuma.operator.assign.LabelChange;
import io.podnuma.operator.assign.NodeAssigner;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.assign.PolicyCandidate;
import io.podnuma.operator.plan.EventReason;
import io.podnuma.operator.plan.LabelPlan;
import io.podnuma.operator.plan.PolicyEvent;
import io.podnuma.operator.plan.PolicyEvents;
import io.podnuma.operator.plan.Teardown;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.RenderedAgent;
import io.podnuma.operator.status.Observation;
import io.podnuma.operator.status.PolicyStatusAggregator;
import io.podnuma.operator.status.Rollout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One policy's reconcile as a table of contents: each step decides through a pure function and acts through a port.
 *
 * <ol>
 *   <li>render: the agent's objects for the policy (a policy the agent would refuse stops here, nothing written);
 *   <li>{@link #assign}: who governs which node, from every policy and node in the caches;
 *   <li>{@link #relabel}: write the label changes that give this policy a node or take one from it;
 *   <li>{@link #applyAgents}: apply the agent's ConfigMap, DaemonSet, Service (and ServiceMonitor);
 *   <li>{@link #observe}: the status from the DaemonSet's rollout and the governed nodes' NumaNodeStates;
 *   <li>{@link #announce}: the Events of the transitions; the status is returned only when it changed.
 * </ol>
 *
 * Deletion ({@link #cleanup}): remove the labels, wait for the agents to restore their nodes (or time out), delete
 * the dependents, release the finalizer.
 */
public final class PolicySteps {

    private static final Logger LOG = LoggerFactory.getLogger(PolicySteps.class);

    private final ClusterView view;
    private final NodeLabels labels;
    private final AgentObjects agents;
    private final EventSink events;
    private final ReconcileSettings settings;
    /**
     * The status each policy (by uid) was last given. The next reconcile may come before the informer shows that
     * write (a node state changed meanwhile); its Events must follow from what was announced, not from the stale copy,
     * or a transition is announced twice.
     */
    private final Map<String, NumaResourcePolicyStatus> announced = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Each node's candidate by name, with the resourceVersion it was made from: every reconcile assigns every node,
     * and copying 5,000 nodes' labels per reconcile was most of the operator's garbage (the scale bench).
     */
    private final Map<String, Candidate> nodeCandidates = new java.util.concurrent.ConcurrentHashMap<>();

    private record Candidate(String resourceVersion, NodeCandidate node) {}

    public PolicySteps(
            ClusterView view, NodeLabels labels, AgentObjects agents, EventSink events, ReconcileSettings settings) {
        this.view = view;
        this.labels = labels;
        this.agents = agents;
        this.events = events;
        this.settings = settings;
    }

    /** The status to write, or empty when it is unchanged (then nothing was written but what differed). */
    public Optional<NumaResourcePolicyStatus> reconcile(NumaResourcePolicy policy, Instant now) {
        String name = policy.getMetadata().getName();
        // Rendered first: a policy the agent would refuse fails here, before any node is labelled for it.
        RenderedAgent rendered = AgentRender.render(name, policy.getSpec(), settings.rollout());
        Assignment assignment = assign(policy);
        List<LabelChange> changes = relabel(assignment, name);
        Applied applied = applyAgents(policy, rendered);
        NumaResourcePolicyStatus status = observe(policy, assignment, rendered, applied, now);
        announce(policy, status, changes, applied, rendered, now);
        return status.equals(policy.getStatus()) ? Optional.empty() : Optional.of(status);
    }

    /** What a deletion step left: released, or look again after a while. */
    public record Cleanup(boolean released, Optional<Duration> recheck) {}

    public Cleanup cleanup(NumaResourcePolicy policy, Instant now) {
        String name = policy.getMetadata().getName();
        List<LabelChange> changes = relabel(assign(policy), name);
        if (!changes.isEmpty()) {
            events.record(
                    policy,
                    new PolicyEvent(
                            EventReason.NODES_RELEASED,
                            "the policy is being deleted: podnuma.io/policy=" + name + " taken off " + changes.size()
                                    + " node(s); their agents restore the containers"),
                    now);
        }
        List<String> reporting = view.nodeStatesReporting(name).stream()
                .map(s -> s.getMetadata().getName())
                .sorted()
                .toList();
        Instant requested = Optional.ofNullable(policy.getMetadata().getDeletionTimestamp())
                .map(Instant::parse)
                .orElse(now);
        Teardown.Step step = Teardown.next(name, reporting, requested, now, settings.restoreTimeout());
        if (step instanceof Teardown.Wait wait) {
            LOG.info(
                    "policy {}: waiting for the agents of {} node(s) to restore them",
                    name,
                    wait.nodes().size());
            return new Cleanup(false, Optional.of(wait.recheck()));
        }
        if (step instanceof Teardown.GiveUp giveUp) {
            LOG.warn("policy {}: {}", name, giveUp.event().message());
            events.record(policy, giveUp.event(), now);
        }
        agents.delete(name);
        announced.remove(Optional.ofNullable(policy.getMetadata().getUid()).orElse(name));
        return new Cleanup(true, Optional.empty());
    }

    /** Assignment over every policy in the cache, with this one as given (the cache may hold an older copy). */
    Assignment assign(NumaResourcePolicy policy) {
        String name = policy.getMetadata().getName();
        Map<String, PolicyCandidate> candidates = new TreeMap<>();
        for (NumaResourcePolicy p : view.policies()) {
            if (name.equals(p.getMetadata().getName())) {
                continue;
            }
            try {
                candidates.put(p.getMetadata().getName(), PolicyCandidate.of(p));
            } catch (IllegalArgumentException e) {
                // One malformed policy must not stop the others; its own reconcile reports it.
                LOG.warn(
                        "policy {} left out of the assignment: {}",
                        p.getMetadata().getName(),
                        e.getMessage());
            }
        }
        candidates.put(name, PolicyCandidate.of(policy));
        List<NodeCandidate> nodes = new ArrayList<>();
        for (Node n : view.nodes()) {
            nodes.add(candidate(n));
        }
        if (nodeCandidates.size() > nodes.size()) {
            // Nodes were deleted: forget them.
            Set<String> present = nodes.stream().map(NodeCandidate::name).collect(Collectors.toSet());
            nodeCandidates.keySet().retainAll(present);
        }
        return NodeAssigner.assign(candidates.values(), nodes);
    }

    private NodeCandidate candidate(Node n) {
        String name = n.getMetadata().getName();
        String version = n.getMetadata().getResourceVersion();
        Candidate known = nodeCandidates.get(name);
        if (known != null && version != null && version.equals(known.resourceVersion())) {
            return known.node();
        }
        NodeCandidate made = NodeCandidate.of(n);
        if (version != null) {
            nodeCandidates.put(name, new Candidate(version, made));
        }
        return made;
    }

    /** Writes the label changes that concern this policy; returns them. */
    List<LabelChange> relabel(Assignment assignment, String policy) {
        Set<String> existing =
                view.policies().stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        existing.add(policy);
        List<LabelChange> changes = LabelPlan.concerning(assignment, policy, existing);
        for (LabelChange c : changes) {
            labels.write(c);
        }
        if (!changes.isEmpty()) {
            LOG.info("policy {}: {} label change(s): {}", policy, changes.size(), changes);
        }
        return changes;
    }

    Applied applyAgents(NumaResourcePolicy policy, RenderedAgent rendered) {
        return agents.apply(policy, rendered, settings.serviceMonitors());
    }

    NumaResourcePolicyStatus observe(
            NumaResourcePolicy policy, Assignment assignment, RenderedAgent rendered, Applied applied, Instant now) {
        String name = policy.getMetadata().getName();
        Optional<Rollout> rollout =
                applied.daemonSet().or(() -> view.daemonSet(name)).map(Rollout::of);
        Map<String, NumaNodeStateStatus> states = new TreeMap<>();
        for (String node : assignment.of(name).governed()) {
            view.nodeState(node).map(state -> state.getStatus()).ifPresent(s -> states.put(node, s));
        }
        return PolicyStatusAggregator.status(
                new Observation(policy, assignment, rollout, states, rendered.policyHash()), now, settings.status());
    }

    void announce(
            NumaResourcePolicy policy,
            NumaResourcePolicyStatus status,
            List<LabelChange> changes,
            Applied applied,
            RenderedAgent rendered,
            Instant now) {
        String name = policy.getMetadata().getName();
        String uid = Optional.ofNullable(policy.getMetadata().getUid()).orElse(name);
        Optional<NumaResourcePolicyStatus> before =
                Optional.ofNullable(announced.get(uid)).or(() -> Optional.ofNullable(policy.getStatus()));
        announced.put(uid, status);
        List<PolicyEvent> happened = PolicyEvents.of(new PolicyEvents.Change(
                name,
                before,
                status,
                LabelPlan.gained(changes, name),
                applied.newTemplate() ? Optional.of(rendered.configHash()) : Optional.empty()));
        for (PolicyEvent e : happened) {
            events.record(policy, e, now);
        }
    }
}
