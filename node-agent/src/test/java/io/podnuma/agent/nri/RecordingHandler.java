package io.podnuma.agent.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerAdjustment;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxContainerAdjustment;
import io.podnuma.nri.v1alpha1.LinuxContainerUpdate;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * An {@link NriHandler} for tests: records every call in a queue, and answers what the test set (by default nothing).
 * {@link #pinning} makes one that answers like a pinning agent would.
 */
final class RecordingHandler implements NriHandler {

    /** How long {@link #next} waits for a call. */
    static final Duration WAIT = Duration.ofSeconds(10);

    /** The container annotation a {@link #pinning} handler copies into its adjustment, to send big answers. */
    static final String ECHO = "echo";

    record Sync(List<PodSandbox> pods, List<Container> containers) {}

    record Update(Container container, LinuxResources requested) {}

    record Event(NriEvent event, PodSandbox pod, Optional<Container> container) {

        String podId() {
            return pod.getId();
        }

        Optional<String> containerId() {
            return container.map(Container::getId);
        }
    }

    final LinkedBlockingQueue<RuntimeInfo> connected = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Sync> syncs = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Container> created = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Update> updated = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Container> stopped = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> disconnects = new LinkedBlockingQueue<>();

    volatile SynchronizeResult syncAnswer = SynchronizeResult.none();
    volatile BiFunction<PodSandbox, Container, CreateResult> createAnswer = (pod, container) -> CreateResult.none();
    volatile BiFunction<Container, LinuxResources, List<ContainerUpdate>> updateAnswer =
            (container, requested) -> List.of();
    volatile List<ContainerUpdate> stopAnswer = List.of();
    /** How long the next CreateContainer sleeps before it answers (once; then it is back to zero). */
    volatile Duration slowOnce = Duration.ZERO;

    /**
     * A handler that pins every created container to {@code pin} (copying the container's {@link #ECHO} annotation
     * into the adjustment) and keeps that pin against an update, taking the rest of the update as asked.
     */
    static RecordingHandler pinning(LinuxCPU pin) {
        RecordingHandler handler = new RecordingHandler();
        handler.createAnswer = (pod, container) -> {
            ContainerAdjustment.Builder adjust = pinTo(pin).toBuilder();
            String echo = container.getAnnotationsMap().get(ECHO);
            if (echo != null) {
                adjust.putAnnotations(ECHO, echo);
            }
            return new CreateResult(Optional.of(adjust.build()), List.of());
        };
        handler.updateAnswer = (container, requested) -> {
            LinuxResources.Builder kept = requested.toBuilder();
            kept.getCpuBuilder().setCpus(pin.getCpus()).setMems(pin.getMems());
            return List.of(update(container.getId(), kept.build()));
        };
        return handler;
    }

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
        Duration sleep = slowOnce;
        if (!sleep.isZero()) {
            slowOnce = Duration.ZERO;
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                // the request's deadline passed: the runtime has given up on us already
                Thread.currentThread().interrupt();
            }
        }
        return createAnswer.apply(pod, container);
    }

    @Override
    public List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources) {
        updated.add(new Update(container, resources));
        return updateAnswer.apply(container, resources);
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

    /** The next call recorded in {@code queue}, waiting up to {@link #WAIT} for it. */
    static <T> T next(LinkedBlockingQueue<T> queue, String what) throws InterruptedException {
        T item = queue.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
            throw new AssertionError("no " + what + " within " + WAIT);
        }
        return item;
    }

    static LinuxCPU cpuset(String cpus, String mems) {
        return LinuxCPU.newBuilder().setCpus(cpus).setMems(mems).build();
    }

    /** An adjustment that sets only the cpuset. */
    static ContainerAdjustment pinTo(LinuxCPU cpu) {
        return ContainerAdjustment.newBuilder()
                .setLinux(LinuxContainerAdjustment.newBuilder()
                        .setResources(LinuxResources.newBuilder().setCpu(cpu)))
                .build();
    }

    static ContainerUpdate update(String containerId, LinuxResources resources) {
        return ContainerUpdate.newBuilder()
                .setContainerId(containerId)
                .setLinux(LinuxContainerUpdate.newBuilder().setResources(resources))
                .build();
    }
}
