package io.podnuma.agent.events;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pod's {@value #TYPE} condition: {@code True} with reason {@value #REASON} while the agent cannot give a resized
 * pod its new size in place, gone once the pod holds what it asks for. The kubelet owns {@code PodResizePending}
 * (its own view: it has accepted the resize) and keeps conditions of other types, so this one stands beside it.
 *
 * <p>Written with a strategic merge patch of {@code pods/status} as the agent's node, as evictions are
 * ({@link KubeEvictionApi}): the Node authorizer and NodeRestriction let a node write the status of its own pods only.
 * Off the caller's thread, one writer; per pod the latest wish wins. A failed write is logged and dropped: the next
 * resize answer for the pod writes again.
 */
public final class PodResizeConditions implements AutoCloseable {

    /** The condition type: a domain-prefixed type, which the kubelet leaves to its writer. */
    public static final String TYPE = "podnuma.io/ResizePending";

    /** The condition's reason while it is {@code True}, as the kubelet's {@code PodResizePending} says it. */
    public static final String REASON = "Infeasible";

    private static final Logger LOG = LoggerFactory.getLogger(PodResizeConditions.class);
    private static final int MAX_MESSAGE = 1024;

    private final ApiRequests requests;
    private final Map<String, String> asNode;
    private final ExecutorService writer;
    private final Map<PodRef, Optional<ResizePending>> wanted = new ConcurrentHashMap<>();

    public PodResizeConditions(KubernetesClient client, NodeRef node, Duration timeout) {
        this.requests = new ApiRequests(client, timeout);
        this.asNode = Map.of("Impersonate-User", node.userName());
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "podnuma-resize-conditions");
            t.setDaemon(true);
            return t;
        });
    }

    /** Sets ({@code pending} present) or removes the pod's condition; returns at once. */
    public void set(PodRef pod, Optional<ResizePending> pending) {
        wanted.put(pod, pending);
        try {
            writer.execute(() -> write(pod));
        } catch (RejectedExecutionException e) {
            LOG.debug("resize condition of pod {} not written: closing", pod);
        }
    }

    private void write(PodRef pod) {
        Optional<ResizePending> pending = wanted.remove(pod);
        if (pending == null) {
            return;
        }
        try {
            ApiRequests.Answer answer = writeNow(pod, pending);
            if (answer.code() == 404 || answer.code() == 409) {
                LOG.debug("resize condition of pod {} not written: {}", pod, requests.explain(answer.body()));
            } else if (!answer.successful()) {
                LOG.warn(
                        "resize condition of pod {} not written (HTTP {}): {}",
                        pod,
                        answer.code(),
                        requests.explain(answer.body()));
            }
        } catch (KubernetesClientException e) {
            LOG.warn("resize condition of pod {} not written: {}", pod, e.getMessage());
        }
    }

    /** One write, on the caller's thread. */
    ApiRequests.Answer writeNow(PodRef pod, Optional<ResizePending> pending) {
        String path = "/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/status";
        return requests.strategicPatch(path, patch(pod, pending), asNode);
    }

    /** The patch: the condition set, or deleted by its merge key; the UID guards against a pod recreated meanwhile. */
    String patch(PodRef pod, Optional<ResizePending> pending) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", TYPE);
        if (pending.isPresent()) {
            String message = pending.get().cause() + ": " + pending.get().message();
            condition.put("status", "True");
            condition.put("reason", REASON);
            condition.put(
                    "message", message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE - 1) + "…" : message);
            condition.put(
                    "lastTransitionTime",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        } else {
            condition.put("$patch", "delete");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("metadata", Map.of("uid", pod.uid()));
        body.put("status", Map.of("conditions", List.of(condition)));
        return requests.serialization().asJson(body);
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.shutdownNow();
        }
    }
}
