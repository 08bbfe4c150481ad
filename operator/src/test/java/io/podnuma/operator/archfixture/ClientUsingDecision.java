package io.podnuma.operator.archfixture;

import io.fabric8.kubernetes.client.KubernetesClient;

/** A mistake for the purity rule's self-test: a decision reading the cluster itself. */
public final class ClientUsingDecision {
    public static int nodes(KubernetesClient client) {
        return client.nodes().list().getItems().size();
    }
}
