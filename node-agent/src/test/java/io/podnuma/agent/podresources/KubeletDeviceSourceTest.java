package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.DomainSocketServer;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ClaimResource;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.DynamicResource;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.podresources.v1.TopologyInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Device merge against a fake kubelet: a Java PodResources server on a second unix socket plays the kubelet's
 * device manager; our server on the first socket must pass its devices through.
 */
class KubeletDeviceSourceTest {

    private static final ContainerDevices GPU = ContainerDevices.newBuilder()
            .setResourceName("example.com/gpu")
            .addDeviceIds("gpu-7")
            .setTopology(
                    TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(1)))
            .build();
    private static final ContainerDevices SPARE_GPU =
            GPU.toBuilder().clearDeviceIds().addDeviceIds("gpu-8").build();
    private static final DynamicResource CLAIM = DynamicResource.newBuilder()
            .setClaimName("fpga")
            .setClaimNamespace("default")
            .addClaimResources(
                    ClaimResource.newBuilder().setDriverName("fpga.example.com").setDeviceName("fpga-0"))
            .build();

    @TempDir
    Path dir;

    private ManagedChannel channel;

    @AfterEach
    void closeChannel() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** The kubelet's view: it knows devices, and (policy none) no CPUs or memory. */
    private static final class FakeKubelet extends PodResourcesListerGrpc.PodResourcesListerImplBase {
        private final CountDownLatch hang;

        FakeKubelet(CountDownLatch hang) {
            this.hang = hang;
        }

        private static PodResources classic() {
            return PodResources.newBuilder()
                    .setName("classic")
                    .setNamespace("default")
                    .addContainers(ContainerResources.newBuilder().setName("whole"))
                    .addContainers(ContainerResources.newBuilder()
                            .setName("half")
                            .addDevices(GPU)
                            .addDynamicResources(CLAIM))
                    .build();
        }

        private void maybeHang() {
            try {
                hang.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void list(ListPodResourcesRequest request, StreamObserver<ListPodResourcesResponse> response) {
            maybeHang();
            response.onNext(ListPodResourcesResponse.newBuilder()
                    .addPodResources(classic())
                    .build());
            response.onCompleted();
        }

        @Override
        public void get(GetPodResourcesRequest request, StreamObserver<GetPodResourcesResponse> response) {
            maybeHang();
            if (!request.getPodName().equals("classic")) {
                response.onError(Status.UNKNOWN
                        .withDescription("pod " + request.getPodName() + " not found")
                        .asRuntimeException());
                return;
            }
            response.onNext(GetPodResourcesResponse.newBuilder()
                    .setPodResources(classic())
                    .build());
            response.onCompleted();
        }

        @Override
        public void getAllocatableResources(
                AllocatableResourcesRequest request, StreamObserver<AllocatableResourcesResponse> response) {
            maybeHang();
            response.onNext(AllocatableResourcesResponse.newBuilder()
                    .addDevices(GPU)
                    .addDevices(SPARE_GPU)
                    .build());
            response.onCompleted();
        }
    }

    private PodResourcesListerGrpc.PodResourcesListerBlockingStub ours(DeviceSource devices, Path socket)
            throws Exception {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.perContainer());
        PodResourcesService service = new PodResourcesService(new AtomicReference<>(scenario.snapshot())::get, devices);
        endpoint = PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service);
        channel = DomainSocketChannels.open(socket);
        return PodResourcesListerGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS);
    }

    private PodResourcesEndpoint endpoint;

    @AfterEach
    void closeEndpoint() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    @Test
    void devicesFromTheKubeletAreMergedIntoListGetAndAllocatable() throws Exception {
        Path kubeletSocket = dir.resolve("kubelet.sock");
        try (DomainSocketServer kubelet = DomainSocketServer.start(
                        kubeletSocket, List.of(new FakeKubelet(new CountDownLatch(0)).bindService()));
                KubeletDeviceSource devices = new KubeletDeviceSource(kubeletSocket, Duration.ofSeconds(5))) {
            var stub = ours(devices, dir.resolve("podnuma.sock"));

            PodResources listed =
                    stub.list(ListPodResourcesRequest.getDefaultInstance()).getPodResources(0);
            assertThat(listed.getContainers(0).getName()).isEqualTo("whole");
            assertThat(listed.getContainers(0).getCpuIdsCount())
                    .as("our CPUs stay")
                    .isEqualTo(2);
            assertThat(listed.getContainers(0).getDevicesList()).isEmpty();
            assertThat(listed.getContainers(1).getDevicesList()).containsExactly(GPU);
            assertThat(listed.getContainers(1).getDynamicResourcesList()).containsExactly(CLAIM);

            PodResources got = stub.get(GetPodResourcesRequest.newBuilder()
                            .setPodNamespace("default")
                            .setPodName("classic")
                            .build())
                    .getPodResources();
            assertThat(got).isEqualTo(listed);

            AllocatableResourcesResponse allocatable =
                    stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance());
            assertThat(allocatable.getDevicesList()).containsExactly(GPU, SPARE_GPU);
            assertThat(allocatable.getCpuIdsCount()).isEqualTo(126);
        }
    }

    @Test
    void anAbsentKubeletSocketMeansNoDevices() throws Exception {
        try (KubeletDeviceSource devices =
                new KubeletDeviceSource(dir.resolve("no-kubelet-here.sock"), Duration.ofSeconds(5))) {
            var stub = ours(devices, dir.resolve("podnuma.sock"));
            PodResources listed =
                    stub.list(ListPodResourcesRequest.getDefaultInstance()).getPodResources(0);
            assertThat(listed.getContainers(1).getDevicesList()).isEmpty();
            assertThat(listed.getContainers(0).getCpuIdsCount()).isEqualTo(2);
            assertThat(devices.allocatable()).isEmpty();
        }
    }

    @Test
    void aHungKubeletCostsTheTimeoutAndTheDevicesOnly() throws Exception {
        Path kubeletSocket = dir.resolve("hung.sock");
        CountDownLatch hang = new CountDownLatch(1);
        try (DomainSocketServer kubelet =
                        DomainSocketServer.start(kubeletSocket, List.of(new FakeKubelet(hang).bindService()));
                KubeletDeviceSource devices = new KubeletDeviceSource(kubeletSocket, Duration.ofMillis(300))) {
            try {
                long started = System.nanoTime();
                DeviceAssignments all = devices.all();
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertThat(all).isEqualTo(DeviceAssignments.NONE);
                assertThat(tookMs).isBetween(250L, 5_000L);
            } finally {
                hang.countDown();
            }
        }
    }

    @Test
    void aPodTheKubeletDoesNotKnowHasNoDevices() throws Exception {
        Path kubeletSocket = dir.resolve("kubelet.sock");
        try (DomainSocketServer kubelet = DomainSocketServer.start(
                        kubeletSocket, List.of(new FakeKubelet(new CountDownLatch(0)).bindService()));
                KubeletDeviceSource devices = new KubeletDeviceSource(kubeletSocket, Duration.ofSeconds(5))) {
            assertThat(devices.pod("default", "other")).isEqualTo(DeviceAssignments.NONE);
            assertThat(devices.pod("default", "classic").of(new ContainerKey("default", "classic", "half")))
                    .isEqualTo(new DeviceAssignments.Assigned(List.of(GPU), List.of(CLAIM)));
        }
    }

    @Test
    void timeoutMustBePositive() {
        assertThatThrownBy(() -> new KubeletDeviceSource(dir.resolve("k.sock"), Duration.ZERO))
                .hasMessage("kubelet PodResources timeout PT0S must be positive, e.g. PT1S");
    }
}
