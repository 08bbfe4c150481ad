package io.podnuma.testkit.agent;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podnuma.controlplane.ControlPlane;

/**
 * An agent's credentials as the kubelet gets them for its pod: a ServiceAccount token bound to a pod (TokenRequest with
 * a boundObjectRef), so the API server adds the pod's node to the user's extra
 * ({@code authentication.kubernetes.io/node-name}).
 */
public final class AgentTokens {

    private AgentTokens() {}

    /** A pod of the agent's ServiceAccount bound to {@code node} (kwok reports it running; no image runs). */
    public static Pod agentPod(String name, String namespace, String serviceAccount, String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withServiceAccountName(serviceAccount)
                .addNewContainer()
                .withName("agent")
                .withImage("podnuma.local/pause:1")
                .endContainer()
                .endSpec()
                .build();
    }

    /** A ten-minute token of {@code serviceAccount} bound to pod {@code pod}. */
    public static String boundToken(ControlPlane plane, String namespace, String serviceAccount, String pod) {
        return plane.kubectl(
                        "create",
                        "token",
                        serviceAccount,
                        "--namespace",
                        namespace,
                        "--bound-object-kind",
                        "Pod",
                        "--bound-object-name",
                        pod,
                        "--duration",
                        "10m")
                .assertSuccess()
                .stdout()
                .strip();
    }

    /** A token bound to nothing: no node in the user's extra. */
    public static String unboundToken(ControlPlane plane, String namespace, String serviceAccount) {
        return plane.kubectl("create", "token", serviceAccount, "--namespace", namespace, "--duration", "10m")
                .assertSuccess()
                .stdout()
                .strip();
    }

    /** A client that authenticates with the token only (no client certificate, which would win). */
    public static KubernetesClient clientWithToken(ControlPlane plane, String token) {
        Config admin = plane.client().getConfiguration();
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(admin.getMasterUrl())
                .withCaCertData(admin.getCaCertData())
                .withCaCertFile(admin.getCaCertFile())
                .withOauthToken(token)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
