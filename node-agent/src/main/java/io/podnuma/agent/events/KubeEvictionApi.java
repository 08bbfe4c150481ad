package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * {@link EvictionApi} through fabric8. The Eviction is POSTed with the client's own HTTP client rather than
 * {@code pods().evict()}, which turns a 429 into {@code false} and loses the API server's explanation (the budget's
 * name and numbers) that the agent reports.
 */
final class KubeEvictionApi implements EvictionApi {

    private final KubernetesClient client;
    private final Duration timeout;

    KubeEvictionApi(KubernetesClient client, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public Optional<LivePod> get(String namespace, String name) {
        Pod pod = client.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
            return Optional.empty();
        }
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
        String base = client.getMasterUrl().toString().replaceAll("/+$", "");
        HttpRequest request = client.getHttpClient()
                .newHttpRequestBuilder()
                .uri(base + "/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/eviction")
                .post("application/json", client.getKubernetesSerialization().asJson(eviction))
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .build();
        HttpResponse<String> response;
        try {
            response = client.getHttpClient()
                    .sendAsync(request, String.class)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while evicting pod " + pod, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KubernetesClientException("no answer to the eviction of pod " + pod + ": " + e, e);
        }
        if (response.isSuccessful()) {
            return new Answer(response.code(), "");
        }
        return new Answer(response.code(), explain(response.body()));
    }

    /** The Status message with its causes, or the raw body when it is not a Status. */
    private String explain(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            Status status = client.getKubernetesSerialization().unmarshal(body, Status.class);
            String message = Objects.toString(status.getMessage(), "");
            if (status.getDetails() == null || status.getDetails().getCauses() == null) {
                return message;
            }
            String causes = status.getDetails().getCauses().stream()
                    .map(StatusCause::getMessage)
                    .filter(Objects::nonNull)
                    .collect(Collectors.joining("; "));
            return causes.isEmpty() ? message : message + " (" + causes + ")";
        } catch (RuntimeException e) {
            return body;
        }
    }
}
