package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    public InformerPodSource(KubernetesClient client, String nodeName) {
        this.client = client;
        this.nodeName = nodeName;
    }

    @Override
    public void start(Listener listener) {
        informer = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", nodeName)
                .runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                listener.changed(pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                listener.changed(newPod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                listener.deleted(pod);
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
        informer.start();
    }

    @Override
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!informer.hasSynced()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return true;
    }

    @Override
    public List<Pod> list() {
        return informer.getStore().list();
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
