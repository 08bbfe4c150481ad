package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link EvictionApi} with plain requests (see {@link ApiRequests}). The Eviction is POSTed to the pod's
 * {@code eviction} subresource directly rather than through {@code pods().evict()}, which turns a 429 into
 * {@code false} and loses the API server's explanation (the budget's name) that the agent reports.
 */
final class KubeEvictionApi implements EvictionApi {

    private final ApiRequests requests;

    KubeEvictionApi(KubernetesClient client, Duration timeout) {
        this.requests = new ApiRequests(client, timeout);
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
        ApiRequests.Answer answer =
                requests.post("/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/eviction", eviction);
        return new Answer(answer.code(), answer.successful() ? "" : requests.explain(answer.body()));
    }
}
