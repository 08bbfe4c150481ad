package io.podnuma.operator.reconcile;

import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.render.RenderedAgent;

/** The objects that run a policy's agents, in the operator's namespace, written with the operator's field manager. */
public interface AgentObjects {

    /**
     * Applies (server-side) the rendered objects that differ from what the cluster has, owned by the policy; the
     * ServiceMonitor only when {@code serviceMonitor} (the cluster has {@code monitoring.coreos.com}): applied when
     * one was rendered, else the policy's earlier one deleted.
     */
    Applied apply(NumaResourcePolicy owner, RenderedAgent rendered, boolean serviceMonitor);

    /** Deletes the policy's objects; those already gone are fine. */
    void delete(String policy);
}
