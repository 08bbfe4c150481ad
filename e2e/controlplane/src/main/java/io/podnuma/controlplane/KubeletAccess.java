package io.podnuma.controlplane;

import java.util.List;

/** Whether a {@link LocalControlPlane}'s API server is set up for real kubelets ({@link RealNode}) to join. */
public enum KubeletAccess {
    /** kwok's simulated nodes only: RBAC authorization, no kubelet client certificate; loopback only. */
    NONE("127.0.0.1", List.of()),
    /**
     * Real kubelets too: the Node authorizer and NodeRestriction admission, a client certificate for the API
     * server's calls to kubelets (logs, exec), which it reaches by their hostname. Pods on the pod network (the
     * operator's) reach it on the bridge's gateway address, which its certificate names: there is no kube-proxy to
     * route the {@code kubernetes} Service, and a pod cannot dial the host's loopback. A {@link GuestNode}'s kubelet
     * and host-network pods dial it on QEMU's address of the host, which the certificate names too.
     */
    REAL_KUBELET("0.0.0.0", List.of(RealNode.POD_GATEWAY, GuestNodeFiles.HOST_FROM_GUEST));

    private final String bindAddress;
    private final List<String> podNetworkAddresses;

    KubeletAccess(String bindAddress, List<String> podNetworkAddresses) {
        this.bindAddress = bindAddress;
        this.podNetworkAddresses = podNetworkAddresses;
    }

    String bindAddress() {
        return bindAddress;
    }

    /** The addresses, besides loopback and the service IP, its serving certificate names. */
    List<String> podNetworkAddresses() {
        return podNetworkAddresses;
    }
}
