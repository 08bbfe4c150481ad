package io.podnuma.agent.nri;

import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.InvalidProtocolBufferException;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The conformance test's {@link NriHandler}: records every call, pins every created container to {@code cpus}/
 * {@code mems} (echoing the container's {@code echo} annotation into the adjustment, to send big answers), keeps
 * that pin against a kubelet update, answers a stop with {@link #stopAnswer}, and sleeps {@link #slowOnce} once in
 * the next CreateContainer.
 */
final class ConformanceHandler implements NriHandler {

    static final String ECHO = "echo";

    record Sync(List<PodSandbox> pods, List<Container> containers) {}

    record Event(NriEvent event, String podId, Optional<String> containerId) {}

    record Update(String containerId, LinuxResources requested) {}

    final LinkedBlockingQueue<RuntimeInfo> connected = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Sync> syncs = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Container> created = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Update> updated = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> stopped = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> disconnects = new LinkedBlockingQueue<>();
    /** Nanoseconds spent in each CreateContainer call. */
    final LinkedBlockingQueue<Long> createNanos = new LinkedBlockingQueue<>();

    private final String cpus;
    private final String mems;
    volatile List<ContainerUpdate> stopAnswer = List.of();
    volatile Duration slowOnce = Duration.ZERO;

    ConformanceHandler(String cpus, String mems) {
        this.cpus = cpus;
        this.mems = mems;
    }

    LinuxCPU pin() {
        return LinuxCPU.newBuilder().setCpus(cpus).setMems(mems).build();
    }

    @Override
    public void connected(RuntimeInfo runtime) {
        connected.add(runtime);
    }

    @Override
    public SynchronizeResult synchronize(List<PodSandbox> pods, List<Container> containers) {
        syncs.add(new Sync(pods, containers));
        return SynchronizeResult.none();
    }

    @Override
    public CreateResult createContainer(PodSandbox pod, Container container) {
        long t0 = System.nanoTime();
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
        ContainerAdjustment.Builder adjust = ContainerAdjustment.newBuilder()
                .setLinux(LinuxContainerAdjustment.newBuilder()
                        .setResources(LinuxResources.newBuilder().setCpu(pin())));
        Map<String, String> annotations = container.getAnnotationsMap();
        if (annotations.containsKey(ECHO)) {
            adjust.putAnnotations(ECHO, annotations.get(ECHO));
        }
        CreateResult result = new CreateResult(Optional.of(adjust.build()), List.of());
        createNanos.add(System.nanoTime() - t0);
        return result;
    }

    @Override
    public List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources) {
        updated.add(new Update(container.getId(), resources));
        LinuxResources.Builder kept = resources.toBuilder();
        kept.getCpuBuilder().setCpus(cpus).setMems(mems);
        return List.of(update(container.getId(), kept.build()));
    }

    @Override
    public List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
        stopped.add(container.getId());
        return stopAnswer;
    }

    @Override
    public void event(NriEvent event, PodSandbox pod, Optional<Container> container) {
        events.add(new Event(event, pod.getId(), container.map(Container::getId)));
    }

    @Override
    public void disconnected(String reason) {
        disconnects.add(reason);
    }

    static ContainerUpdate update(String containerId, LinuxResources resources) {
        return ContainerUpdate.newBuilder()
                .setContainerId(containerId)
                .setLinux(LinuxContainerUpdate.newBuilder().setResources(resources))
                .build();
    }

    static ContainerUpdate cpusetUpdate(String containerId, String cpus, String mems) {
        return update(
                containerId,
                LinuxResources.newBuilder()
                        .setCpu(LinuxCPU.newBuilder().setCpus(cpus).setMems(mems))
                        .build());
    }

    /** {@code c} as the subset's types see it: without the fields upstream has and the subset does not. */
    static Container withoutUnknownFields(Container c) {
        try {
            return DiscardUnknownFieldsParser.wrap(Container.parser()).parseFrom(c.toByteString());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("re-parsing a parsed container", e);
        }
    }

    static <T> T next(LinkedBlockingQueue<T> queue, Duration wait, String what) throws InterruptedException {
        T item = queue.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
            throw new AssertionError("no " + what + " within " + wait);
        }
        return item;
    }
}
