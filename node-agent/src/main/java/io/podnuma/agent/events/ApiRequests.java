package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Single HTTP requests to the API server with the client's credentials and TLS, but without fabric8's own retries: it
 * silently retries 429 and 5xx answers for up to minutes, which would hide a budget's refusal and stall the callers'
 * own bounded retries. One request is one try; the answer's code and body come back as they are.
 */
final class ApiRequests {

    /** An answer: HTTP code and body. */
    record Answer(int code, String body) {
        boolean successful() {
            return code >= 200 && code < 300;
        }
    }

    private final HttpClient http;
    private final String base;
    private final KubernetesSerialization serialization;
    private final Duration timeout;

    ApiRequests(KubernetesClient client, Duration timeout) {
        Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.http = client.getHttpClient()
                .newBuilder()
                .tag(new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        this.base = client.getMasterUrl().toString().replaceAll("/+$", "");
        this.serialization = client.getKubernetesSerialization();
    }

    KubernetesSerialization serialization() {
        return serialization;
    }

    Answer get(String path) {
        return send(builder(path).build(), "GET " + path);
    }

    Answer post(String path, Object body) {
        return post(path, body, Map.of());
    }

    /** A POST with headers of its own (an {@code Impersonate-User}, say) beside the client's credentials. */
    Answer post(String path, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = builder(path).post("application/json", serialization.asJson(body));
        headers.forEach(request::setHeader);
        return send(request.build(), "POST " + path);
    }

    Answer mergePatch(String path, String patch) {
        return send(
                builder(path)
                        .method("PATCH", "application/merge-patch+json", patch)
                        .build(),
                "PATCH " + path);
    }

    /** A strategic merge patch with headers of its own beside the client's credentials. */
    Answer strategicPatch(String path, String patch, Map<String, String> headers) {
        HttpRequest.Builder request = builder(path).method("PATCH", "application/strategic-merge-patch+json", patch);
        headers.forEach(request::setHeader);
        return send(request.build(), "PATCH " + path);
    }

    /** The refusal as an exception carrying the code and the API server's explanation. */
    KubernetesClientException failure(String what, Answer answer) {
        return new KubernetesClientException(
                what + " failed with HTTP " + answer.code() + ": " + explain(answer.body()), answer.code(), null);
    }

    /** The Status message with its causes, or the raw body when it is not a Status. */
    String explain(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            Status status = serialization.unmarshal(body, Status.class);
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

    private HttpRequest.Builder builder(String path) {
        return http.newHttpRequestBuilder().uri(base + path).timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Answer send(HttpRequest request, String what) {
        try {
            HttpResponse<String> response =
                    http.sendAsync(request, String.class).get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            return new Answer(response.code(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted: " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new KubernetesClientException("no answer to " + what + ": " + cause, cause);
        }
    }
}
