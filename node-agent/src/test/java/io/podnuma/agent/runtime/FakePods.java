package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.pods.PodSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pods as the API server has them, told to the agent's listener. */
final class FakePods implements PodSource {
    final Map<String, Pod> pods = new LinkedHashMap<>();
    Listener listener;

    @Override
    public void start(Listener l) {
        listener = l;
    }

    @Override
    public boolean awaitSynced(Duration timeout) {
        return true;
    }

    @Override
    public synchronized List<Pod> list() {
        return List.copyOf(pods.values());
    }

    synchronized void put(Pod p) {
        pods.put(p.getMetadata().getUid(), p);
        if (listener != null) {
            listener.changed(p);
        }
    }

    synchronized void remove(Pod p) {
        pods.remove(p.getMetadata().getUid());
        if (listener != null) {
            listener.deleted(p);
        }
    }

    @Override
    public void close() {
        listener = null;
    }
}
