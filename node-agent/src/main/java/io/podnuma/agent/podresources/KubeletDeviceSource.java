package io.podnuma.agent.podresources;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Reads device assignments from the kubelet's own PodResources socket. Each call has a deadline, so a slow or
 * hung kubelet delays an answer by at most {@code timeout} and then costs only the devices; an absent socket
 * (no kubelet socket mounted) is not dialled at all.
 */
public final class KubeletDeviceSource implements DeviceSource {

    private static final Logger LOG = LoggerFactory.getLogger(KubeletDeviceSource.class);

    private final Path socket;
    private final Duration timeout;
    private ManagedChannel channel;

    public KubeletDeviceSource(Path socket, Duration timeout) {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "kubelet PodResources timeout " + timeout + " must be positive, e.g. PT1S");
        }
    }

    @Override
    public Wait waits() {
        return Wait.REMOTE_CALL;
    }

    @Override
    public DeviceAssignments all() {
        return call(
                "List",
                stub -> DeviceAssignments.from(stub.list(ListPodResourcesRequest.getDefaultInstance())),
                DeviceAssignments.NONE);
    }

    @Override
    public DeviceAssignments pod(String namespace, String name) {
        GetPodResourcesRequest request = GetPodResourcesRequest.newBuilder()
                .setPodNamespace(namespace)
                .setPodName(name)
                .build();
        return call("Get", stub -> DeviceAssignments.from(stub.get(request)), DeviceAssignments.NONE);
    }

    @Override
    public List<ContainerDevices> allocatable() {
        return call(
                "GetAllocatableResources",
                stub -> stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance())
                        .getDevicesList(),
                List.of());
    }

    private <T> T call(String rpc, Function<PodResourcesListerGrpc.PodResourcesListerBlockingStub, T> body, T none) {
        if (!Files.exists(socket)) {
            return none;
        }
        try {
            return body.apply(PodResourcesListerGrpc.newBlockingStub(channel())
                    .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (StatusRuntimeException e) {
            // The kubelet answers Get for a pod it has not admitted yet with an error too (the usual course for a pod
            // just bound): either way no devices, but only a failure is worth a warning.
            boolean notAdmittedYet = "Get".equals(rpc)
                    && String.valueOf(e.getStatus().getDescription()).contains("not found");
            LOG.atLevel(notAdmittedYet ? Level.DEBUG : Level.WARN)
                    .log(
                            "kubelet PodResources {} on {} failed: {}; answering without devices",
                            rpc,
                            socket,
                            e.getStatus());
            return none;
        }
    }

    private synchronized ManagedChannel channel() {
        if (channel == null) {
            channel = DomainSocketChannels.open(socket);
        }
        return channel;
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            channel.shutdownNow();
            try {
                channel.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            channel = null;
        }
    }
}
