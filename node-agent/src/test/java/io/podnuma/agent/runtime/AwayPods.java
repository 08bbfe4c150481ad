package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.pods.PodSource;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The API server is away: the list never comes. */
final class AwayPods implements PodSource {
    @Override
    public void start(Listener listener) {}

    @Override
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(timeout.toNanos());
        return false;
    }

    @Override
    public List<Pod> list() {
        return List.of();
    }

    @Override
    public void close() {}
}
