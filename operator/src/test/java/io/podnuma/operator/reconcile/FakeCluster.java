package io.podnuma.operator.reconcile;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.assign.LabelChange;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.plan.PolicyEvent;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.RenderedAgent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A cluster in memory behind every port: label writes change its nodes, applies are kept (and count only when the
 * rendered objects differ, as the real adapter's applied hash does), Events are recorded.
 */
final class FakeCluster implements ClusterView, NodeLabels, AgentObjects, EventSink {

    final Map<String, NumaResourcePolicy> policies = new TreeMap<>();
    final Map<String, Map<String, String>> nodes = new TreeMap<>();
    final Map<String, NumaNodeState> states = new TreeMap<>();
    final Map<String, RenderedAgent> applied = new TreeMap<>();
    final Map<String, DaemonSet> daemonSets = new TreeMap<>();
    final List<LabelChange> labelWrites = new ArrayList<>();
    final List<String> applies = new ArrayList<>();
    final List<String> deletes = new ArrayList<>();
    final List<PolicyEvent> events = new ArrayList<>();

    void node(String name, String... keyValues) {
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            labels.put(keyValues[i], keyValues[i + 1]);
        }
        nodes.put(name, labels);
    }

    void reporting(String node, String policy) {
        NumaNodeState s = new NumaNodeState(node);
        s.setStatus(new NumaNodeStateStatus(policy, "sha256:x", null, null, null, 0, List.of(), List.of(), null));
        states.put(node, s);
    }

    /** The DaemonSet controller finished rolling out to {@code n} nodes. */
    void rolledOut(String policy, int n) {
        daemonSets.put(
                policy,
                new DaemonSetBuilder()
                        .withNewMetadata()
                        .withGeneration(1L)
                        .endMetadata()
                        .withNewStatus()
                        .withObservedGeneration(1L)
                        .withDesiredNumberScheduled(n)
                        .withUpdatedNumberScheduled(n)
                        .withNumberAvailable(n)
                        .endStatus()
                        .build());
    }

    Optional<String> label(String node) {
        return Optional.ofNullable(nodes.get(node).get(NodeCandidate.POLICY_LABEL));
    }

    @Override
    public List<NumaResourcePolicy> policies() {
        return List.copyOf(policies.values());
    }

    @Override
    public List<Node> nodes() {
        return nodes.entrySet().stream()
                .map(e -> new NodeBuilder()
                        .withNewMetadata()
                        .withName(e.getKey())
                        .withLabels(new HashMap<>(e.getValue()))
                        .endMetadata()
                        .build())
                .toList();
    }

    @Override
    public Optional<NumaNodeState> nodeState(String node) {
        return Optional.ofNullable(states.get(node));
    }

    @Override
    public List<NumaNodeState> nodeStatesReporting(String policy) {
        return states.values().stream()
                .filter(s -> policy.equals(s.getStatus().policy()))
                .toList();
    }

    @Override
    public Optional<DaemonSet> daemonSet(String policy) {
        return Optional.ofNullable(daemonSets.get(policy));
    }

    @Override
    public void write(LabelChange change) {
        labelWrites.add(change);
        Map<String, String> labels = nodes.get(change.node());
        change.to()
                .ifPresentOrElse(
                        p -> labels.put(NodeCandidate.POLICY_LABEL, p),
                        () -> labels.remove(NodeCandidate.POLICY_LABEL));
    }

    @Override
    public Applied apply(NumaResourcePolicy owner, RenderedAgent rendered, boolean serviceMonitor) {
        String name = owner.getMetadata().getName();
        RenderedAgent before = applied.put(name, rendered);
        if (rendered.equals(before)) {
            return Applied.NOTHING;
        }
        applies.add(name);
        boolean newTemplate = before == null || !before.configHash().equals(rendered.configHash());
        return new Applied(java.util.Set.of(AgentObject.DAEMON_SET), newTemplate, Optional.empty());
    }

    @Override
    public void delete(String policy) {
        deletes.add(AgentRender.objectName(policy));
        applied.remove(policy);
        daemonSets.remove(policy);
    }

    @Override
    public void record(NumaResourcePolicy policy, PolicyEvent event, Instant now) {
        events.add(event);
    }
}
