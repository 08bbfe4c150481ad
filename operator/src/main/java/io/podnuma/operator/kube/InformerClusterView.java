package io.podnuma.operator.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.reconcile.ClusterView;
import io.podnuma.operator.render.AgentRender;
import java.util.List;
import java.util.Optional;

/** The cluster as the operator's informers hold it. */
public final class InformerClusterView implements ClusterView {

    /** The index of NumaNodeStates by the policy their status names. */
    public static final String BY_POLICY = "byReportedPolicy";

    private final IndexedResourceCache<NumaResourcePolicy> policies;
    private final InformerEventSource<Node, NumaResourcePolicy> nodes;
    private final InformerEventSource<NumaNodeState, NumaResourcePolicy> nodeStates;
    private final InformerEventSource<DaemonSet, NumaResourcePolicy> daemonSets;
    private final String namespace;

    public InformerClusterView(
            IndexedResourceCache<NumaResourcePolicy> policies,
            InformerEventSource<Node, NumaResourcePolicy> nodes,
            InformerEventSource<NumaNodeState, NumaResourcePolicy> nodeStates,
            InformerEventSource<DaemonSet, NumaResourcePolicy> daemonSets,
            String namespace) {
        this.policies = policies;
        this.nodes = nodes;
        this.nodeStates = nodeStates;
        this.daemonSets = daemonSets;
        this.namespace = namespace;
    }

    @Override
    public List<NumaResourcePolicy> policies() {
        return policies.list().toList();
    }

    @Override
    public List<Node> nodes() {
        return nodes.list().toList();
    }

    @Override
    public Optional<NumaNodeState> nodeState(String node) {
        return nodeStates.get(new ResourceID(node));
    }

    @Override
    public List<NumaNodeState> nodeStatesReporting(String policy) {
        return nodeStates.byIndex(BY_POLICY, policy);
    }

    @Override
    public Optional<DaemonSet> daemonSet(String policy) {
        return daemonSets.get(new ResourceID(AgentRender.objectName(policy), namespace));
    }

    /** The policy a NumaNodeState reports, as an index key. */
    public static List<String> reportedPolicy(NumaNodeState state) {
        return state.getStatus() == null || state.getStatus().policy() == null
                ? List.of()
                : List.of(state.getStatus().policy());
    }
}
