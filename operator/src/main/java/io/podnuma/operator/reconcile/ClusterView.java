package io.podnuma.operator.reconcile;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.util.List;
import java.util.Optional;

/** What a reconcile reads, from the informers' caches: never a fresh list per reconcile. */
public interface ClusterView {

    /** Every policy (the primary cache). */
    List<NumaResourcePolicy> policies();

    /** Every node. */
    List<Node> nodes();

    /** The NumaNodeState named after the node. */
    Optional<NumaNodeState> nodeState(String node);

    /** The NumaNodeStates whose status names the policy. */
    List<NumaNodeState> nodeStatesReporting(String policy);

    /** The policy's agent DaemonSet. */
    Optional<DaemonSet> daemonSet(String policy);
}
