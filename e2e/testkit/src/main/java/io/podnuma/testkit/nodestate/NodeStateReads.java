package io.podnuma.testkit.nodestate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's {@code NumaNodeState} as a test or the demo reads it: the raw status map (as the API server returns it, so a
 * test sees exactly what a user's {@code kubectl get nns -o yaml} shows), one pod's allocation, one container's.
 */
public final class NodeStateReads {

    private NodeStateReads() {}

    /** The status of node {@code node}'s NumaNodeState, if the object exists and has one. */
    public static Optional<Map<?, ?>> status(KubernetesClient client, String node) {
        GenericKubernetesResource r = client.genericKubernetesResources("podnuma.io/v1alpha1", "NumaNodeState")
                .withName(node)
                .get();
        return r != null && r.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                ? Optional.<Map<?, ?>>of(s)
                : Optional.empty();
    }

    /** The condition of type {@code type} in {@code status}, if it has one. */
    public static Optional<Map<?, ?>> condition(Map<?, ?> status, String type) {
        if (!(status.get("conditions") instanceof List<?> conditions)) {
            return Optional.empty();
        }
        return conditions.stream()
                .<Map<?, ?>>map(c -> (Map<?, ?>) c)
                .filter(c -> type.equals(c.get("type")))
                .findFirst();
    }

    /** The allocation of pod {@code namespace/name} in {@code status}, if it has one. */
    public static Optional<Map<?, ?>> allocation(Map<?, ?> status, String namespace, String name) {
        if (!(status.get("allocations") instanceof List<?> pods)) {
            return Optional.empty();
        }
        return pods.stream()
                .<Map<?, ?>>map(p -> (Map<?, ?>) p)
                .filter(p -> namespace.equals(p.get("namespace")) && name.equals(p.get("name")))
                .findFirst();
    }

    /** Container {@code container} of pod {@code namespace/pod}'s allocation, if there is one. */
    public static Optional<Map<?, ?>> container(Map<?, ?> status, String namespace, String pod, String container) {
        return allocation(status, namespace, pod)
                .flatMap(p -> p.get("containers") instanceof List<?> cs
                        ? cs.stream()
                                .<Map<?, ?>>map(c -> (Map<?, ?>) c)
                                .filter(c -> container.equals(c.get("name")))
                                .findFirst()
                        : Optional.empty());
    }
}
