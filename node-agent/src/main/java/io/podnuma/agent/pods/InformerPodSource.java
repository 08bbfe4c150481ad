package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fabric8 informer on the pods with {@code spec.nodeName=<node>} in all namespaces, so the API server sends
 * only this node's pods (a node sees at most a few hundred; the cluster may have hundreds of thousands).
 */
public final class InformerPodSource implements PodSource {

    private static final Logger LOG = LoggerFactory.getLogger(InformerPodSource.class);

    private final KubernetesClient client;
    private final String nodeName;
    private SharedIndexInformer<Pod> informer;
    private CompletableFuture<Void> synced;
    private boolean closed;

    private final Object handOver = new Object();
    /** What the informer told before there was a listener. */
    private final List<Consumer<Listener>> early = new ArrayList<>();

    private Listener listener;

    public InformerPodSource(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    /**
     * A source whose list has already been asked for: the list is the longest wait of an agent's start (the TLS
     * connection, the API server, reading a hundred pods), so it runs while the rest of the agent starts. What arrives
     * before {@link #start} is kept and handed to the listener there, in order, before anything later.
     */
    public static InformerPodSource listing(KubernetesClient client, String nodeName) {
        InformerPodSource source = new InformerPodSource(client, nodeName);
        source.open();
        return source;
    }

    private synchronized void open() {
        if (informer != null) {
            return;
        }
        informer = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", nodeName)
                .runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                tell(l -> l.changed(pod));
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                tell(l -> l.changed(newPod));
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                tell(l -> l.deleted(pod));
            }
        });
        // fabric8's default gives up for good when the first list fails (an agent started while the API server is
        // away would never sync) and on any watch error but "gone"; the agent must keep trying, with backoff.
        informer.exceptionHandler((started, error) -> {
            LOG.warn(
                    "the pod {} of node {} failed ({}); retrying",
                    started ? "watch" : "list",
                    nodeName,
                    error.toString());
            return true;
        });
        synced = informer.start().toCompletableFuture();
    }

    /** To the listener, or kept for it until it comes; told in the informer's order either way. */
    private void tell(Consumer<Listener> event) {
        synchronized (handOver) {
            if (listener == null) {
                early.add(event);
            } else {
                event.accept(listener);
            }
        }
    }

    /**
     * Hands the listener what arrived so far, before this returns (a full list that has arrived is told before the
     * agent's first full sync is queued), then every change as it comes.
     */
    @Override
    public void start(Listener listener) {
        open();
        synchronized (handOver) {
            if (this.listener != null) {
                throw new IllegalStateException("the pod source of node " + nodeName + " has a listener already");
            }
            early.forEach(e -> e.accept(listener));
            early.clear();
            this.listener = listener;
        }
    }

    @Override
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        CompletableFuture<Void> first;
        synchronized (this) {
            first = synced;
        }
        if (first == null) {
            throw new IllegalStateException("the pod source of node " + nodeName + " was not started");
        }
        try {
            first.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return informer.hasSynced();
        } catch (ExecutionException e) {
            // The informer retries a failed list itself (see the exception handler); its flag tells when one came.
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!informer.hasSynced()) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
        return true;
    }

    @Override
    public List<Pod> list() {
        return informer.getStore().list();
    }

    /** Stops the list and watch; a second close does nothing (the agent and its daemon both close the source). */
    @Override
    public synchronized void close() {
        if (informer != null && !closed) {
            closed = true;
            informer.close();
        }
    }
}
