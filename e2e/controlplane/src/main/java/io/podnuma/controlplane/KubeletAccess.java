package io.podnuma.controlplane;

/** Whether a {@link LocalControlPlane}'s API server is set up for real kubelets ({@link RealNode}) to join. */
public enum KubeletAccess {
    /** kwok's simulated nodes only: RBAC authorization, no kubelet client certificate. */
    NONE,
    /**
     * Real kubelets too: the Node authorizer and NodeRestriction admission, a client certificate for the API
     * server's calls to kubelets (logs, exec), which it reaches by their hostname.
     */
    REAL_KUBELET
}
