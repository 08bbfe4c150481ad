package io.podnuma.agent.events;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evicts pods through the Eviction API (policy/v1), in the background, so PodDisruptionBudgets are honoured.
 *
 * <p>Each try first reads the pod: gone, terminating or now another pod under the same name (different UID) ends
 * with {@link EvictionResult.AlreadyGone}; the Eviction itself carries a UID precondition, so a pod recreated between
 * the read and the request is not hit either. A refusal with HTTP 429 (a budget) is reported as an
 * {@link EventReason#EVICTION_BLOCKED} Event on the pod and retried with backoff up to a limit; no answer, a conflict
 * or a server error is retried too; anything else fails at once. A pod UID is never evicted twice at once: asking again
 * while one runs joins it. Results are also reported as Events ({@link EventReason#POD_EVICTED},
 * {@link EventReason#EVICTION_FAILED}).
 */
public final class PodEvictor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PodEvictor.class);

    /** What a 403 can mean: the agent evicts as its node (see {@link KubeEvictionApi}). */
    static final String FORBIDDEN_HINT = " (the agent evicts as its node, which may evict only pods bound to it; its"
            + " ServiceAccount needs"
            + " impersonate:associated-node on nodes.authentication.k8s.io and impersonate-on:associated-node:create on"
            + " pods/eviction, a token bound to its pod, and an API server with ConstrainedImpersonation (Kubernetes"
            + " 1.36+), the Node authorizer and NodeRestriction)";

    /** One eviction in progress; its counters are touched by the executor thread only. */
    private static final class Run {
        final PodRef pod;
        final PodTarget target;
        final String why;
        final CompletableFuture<EvictionResult> result = new CompletableFuture<>();
        int blocked;
        int errors;

        Run(PodTarget target, String why) {
            this.pod = target.pod();
            this.target = target;
            this.why = why;
        }
    }

    private final EvictionApi api;
    private final EventSink events;
    private final EvictionSettings settings;
    private final ScheduledExecutorService executor;
    private final Map<String, Run> running = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** Evicts as {@code node} (see {@link KubeEvictionApi}): only pods bound to that node can be evicted. */
    public PodEvictor(KubernetesClient client, NodeRef node, EventSink events) {
        this(client, node, events, EvictionSettings.defaults());
    }

    public PodEvictor(KubernetesClient client, NodeRef node, EventSink events, EvictionSettings settings) {
        this(new KubeEvictionApi(client, node, settings.requestTimeout()), events, settings);
    }

    PodEvictor(EvictionApi api, EventSink events, EvictionSettings settings) {
        this.api = Objects.requireNonNull(api, "api");
        this.events = Objects.requireNonNull(events, "events");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pod-evictor");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts evicting {@code pod}; {@code why} goes into the {@code PodEvicted} Event (e.g. the admission reason and
     * message). Returns at once; the future completes with the outcome and never exceptionally. While an eviction of
     * the same UID runs, the call joins it (the first {@code why} is kept).
     */
    public CompletableFuture<EvictionResult> evict(PodRef pod, String why) {
        PodTarget target = new PodTarget(Objects.requireNonNull(pod, "pod"));
        if (closed) {
            return CompletableFuture.completedFuture(new EvictionResult.Failed(pod, "pod evictor is closed"));
        }
        boolean[] fresh = new boolean[1];
        Run run = running.computeIfAbsent(pod.uid(), uid -> {
            fresh[0] = true;
            return new Run(target, Objects.toString(why, ""));
        });
        if (fresh[0]) {
            schedule(run, Duration.ZERO);
        }
        return run.result.copy();
    }

    /** Evictions started and not finished. */
    public int inProgress() {
        return running.size();
    }

    /** Stops retrying; evictions still running complete as {@link EvictionResult.Failed}. */
    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Run run : List.copyOf(running.values())) {
            finish(run, new EvictionResult.Failed(run.pod, "pod evictor closed before the eviction finished"));
        }
    }

    private void schedule(Run run, Duration delay) {
        try {
            executor.schedule(() -> step(run), delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            finish(run, new EvictionResult.Failed(run.pod, "pod evictor is closed"));
        }
    }

    private void step(Run run) {
        if (run.result.isDone()) {
            return;
        }
        PodRef pod = run.pod;
        try {
            Optional<EvictionApi.LivePod> live = api.get(pod.namespace(), pod.name());
            if (live.isEmpty()) {
                finish(run, new EvictionResult.AlreadyGone(pod, "pod " + name(pod) + " no longer exists"));
                return;
            }
            if (!live.get().uid().equals(pod.uid())) {
                finish(
                        run,
                        new EvictionResult.AlreadyGone(
                                pod,
                                "pod " + name(pod) + " is now a different pod (uid "
                                        + live.get().uid() + ", asked to evict uid " + pod.uid()
                                        + "); the new pod is left alone"));
                return;
            }
            if (live.get().terminating()) {
                finish(run, new EvictionResult.AlreadyGone(pod, "pod " + name(pod) + " is already terminating"));
                return;
            }
            EvictionApi.Answer answer = api.evict(pod);
            handle(run, answer);
        } catch (RuntimeException e) {
            retryAfterError(run, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private void handle(Run run, EvictionApi.Answer answer) {
        PodRef pod = run.pod;
        int code = answer.code();
        if (code >= 200 && code < 300) {
            events.warning(
                    run.target,
                    EventReason.POD_EVICTED,
                    run.why.isEmpty() ? "Evicted by the podnuma agent" : "Evicted by the podnuma agent: " + run.why);
            finish(run, new EvictionResult.Evicted(pod));
        } else if (code == 404) {
            finish(run, new EvictionResult.AlreadyGone(pod, "pod " + name(pod) + " no longer exists"));
        } else if (code == 429) {
            run.blocked++;
            String message = answer.message().isEmpty() ? "HTTP 429 Too Many Requests" : answer.message();
            // The same text for every refusal of one budget, so the recorder folds them into one Event with a count.
            events.warning(run.target, EventReason.EVICTION_BLOCKED, "Eviction blocked, will retry: " + message);
            if (run.blocked >= settings.maxBlockedAttempts()) {
                finish(run, new EvictionResult.Blocked(pod, run.blocked, message));
            } else {
                schedule(run, settings.backoff(settings.blockedBackoff(), run.blocked));
            }
        } else if (code == 409 || code >= 500) {
            // 409: the pod changed (or was replaced) between the read and the eviction; the next try reads it again.
            retryAfterError(run, "HTTP " + code + ": " + answer.message());
        } else {
            fail(
                    run,
                    "the API server refused the eviction with HTTP " + code + ": " + answer.message()
                            + (code == 403 ? FORBIDDEN_HINT : ""));
        }
    }

    private void retryAfterError(Run run, String message) {
        run.errors++;
        if (run.errors >= settings.maxErrorAttempts()) {
            fail(run, "gave up after " + run.errors + " failed tries, last: " + message);
        } else {
            LOG.info("eviction of pod {} failed (try {}), retrying: {}", run.pod, run.errors, message);
            schedule(run, settings.backoff(settings.errorBackoff(), run.errors));
        }
    }

    private void fail(Run run, String message) {
        events.warning(run.target, EventReason.EVICTION_FAILED, "Eviction failed: " + message);
        finish(run, new EvictionResult.Failed(run.pod, message));
    }

    private void finish(Run run, EvictionResult result) {
        running.remove(run.pod.uid(), run);
        if (run.result.complete(result)) {
            LOG.info("eviction of pod {}: {}", run.pod, result);
        }
    }

    private static String name(PodRef pod) {
        return pod.namespace() + "/" + pod.name();
    }
}
