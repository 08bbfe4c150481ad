package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/** An {@link NriHandler} that records every call and answers what the test set. */
final class RecordingHandler implements NriHandler {

    record Sync(List<PodSandbox> pods, List<Container> containers) {}

    record Event(NriEvent event, PodSandbox pod, Optional<Container> container) {}

    final LinkedBlockingQueue<RuntimeInfo> connected = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Sync> syncs = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Container> created = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<LinuxResources> updated = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Container> stopped = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> disconnects = new LinkedBlockingQueue<>();

    volatile SynchronizeResult syncAnswer = SynchronizeResult.none();
    volatile BiFunction<PodSandbox, Container, CreateResult> create = (p, c) -> CreateResult.none();
    volatile List<ContainerUpdate> updateAnswer = List.of();
    volatile List<ContainerUpdate> stopAnswer = List.of();

    @Override
    public void connected(RuntimeInfo runtime) {
        connected.add(runtime);
    }

    @Override
    public SynchronizeResult synchronize(List<PodSandbox> pods, List<Container> containers) {
        syncs.add(new Sync(pods, containers));
        return syncAnswer;
    }

    @Override
    public CreateResult createContainer(PodSandbox pod, Container container) {
        created.add(container);
        return create.apply(pod, container);
    }

    @Override
    public List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources) {
        updated.add(resources);
        return updateAnswer;
    }

    @Override
    public List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
        stopped.add(container);
        return stopAnswer;
    }

    @Override
    public void event(NriEvent event, PodSandbox pod, Optional<Container> container) {
        events.add(new Event(event, pod, container));
    }

    @Override
    public void disconnected(String reason) {
        disconnects.add(reason);
    }

    static <T> T next(LinkedBlockingQueue<T> queue, String what) throws InterruptedException {
        T item = queue.poll(FakeRuntime.WAIT.toSeconds(), TimeUnit.SECONDS);
        if (item == null) {
            throw new AssertionError("no " + what + " within " + FakeRuntime.WAIT);
        }
        return item;
    }
}
