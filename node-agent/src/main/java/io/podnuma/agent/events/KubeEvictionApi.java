package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@link EvictionApi} with plain requests (see {@link ApiRequests}). The Eviction is POSTed to the pod's
 * {@code eviction} subresource directly rather than through {@code pods().evict()}, which turns a 429 into
 * {@code false} and loses the API server's explanation (the budget's name) that the agent reports.
 *
 * <p>The Eviction goes as the agent's node ({@code Impersonate-User: system:node:<node>}, constrained impersonation's
 * {@code associated-node} mode): RBAC cannot narrow {@code pods/eviction} to one node's pods, but the Node authorizer
 * and the NodeRestriction admission let a node evict only pods bound to it, so the agent holds no cluster-wide right
 * to evict. The read of the pod stays the agent's own ({@code pods get}, which it has for its informer).
 */
final class KubeEvictionApi implements EvictionApi {

    private static final String IMPERSONATE_USER = "Impersonate-User";

    private final ApiRequests requests;
    private final Map<String, String> asNode;

    KubeEvictionApi(KubernetesClient client, NodeRef node, Duration timeout) {
        this.requests = new ApiRequests(client, timeout);
        this.asNode = Map.of(IMPERSONATE_USER, node.userName());
    }

    @Override
    public Optional<LivePod> get(String namespace, String name) {
        String path = "/api/v1/namespaces/" + namespace + "/pods/" + name;
        ApiRequests.Answer answer = requests.get(path);
        if (answer.code() == 404) {
            return Optional.empty();
        }
        if (!answer.successful()) {
            throw requests.failure("reading pod " + namespace + "/" + name, answer);
        }
        Pod pod = requests.serialization().unmarshal(answer.body(), Pod.class);
        return Optional.of(
                new LivePod(pod.getMetadata().getUid(), pod.getMetadata().getDeletionTimestamp() != null));
    }

    @Override
    public Answer evict(PodRef pod) {
        Eviction eviction = new EvictionBuilder()
                .withNewMetadata()
                .withNamespace(pod.namespace())
                .withName(pod.name())
                .endMetadata()
                .withDeleteOptions(new DeleteOptionsBuilder()
                        .withNewPreconditions()
                        .withUid(pod.uid())
                        .endPreconditions()
                        .build())
                .build();
        ApiRequests.Answer answer = requests.post(
                "/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/eviction", eviction, asNode);
        return new Answer(answer.code(), answer.successful() ? "" : requests.explain(answer.body()));
    }
}
