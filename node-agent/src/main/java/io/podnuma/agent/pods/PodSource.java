package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;

/** The pods bound to this node, as the API server tells them. */
public interface PodSource extends AutoCloseable {

    /** What the source tells; called from the source's own threads. */
    interface Listener {
        void changed(Pod pod);

        void deleted(Pod pod);
    }

    /** Starts watching; returns at once (the API server may be away). */
    void start(Listener listener);

    /**
     * Waits until the first full list has arrived.
     *
     * @return false when it has not within {@code timeout}
     */
    boolean awaitSynced(Duration timeout) throws InterruptedException;

    /** Every pod of the node as last listed or watched. */
    List<Pod> list();

    @Override
    void close();
}
