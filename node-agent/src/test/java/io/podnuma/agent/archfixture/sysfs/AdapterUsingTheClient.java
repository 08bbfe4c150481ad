package io.podnuma.agent.archfixture.sysfs;

import io.fabric8.kubernetes.client.KubernetesClient;

/** A mistake for the layer rule's self-test: an adapter that does not speak the API using the Kubernetes client. */
public final class AdapterUsingTheClient {
    public static String version(KubernetesClient client) {
        return client.getKubernetesVersion().getGitVersion();
    }
}
