package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.StreamObserver;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.podresources.HandlerThreads;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The service's answers built once per snapshot: equal to the answers built per call (the old path) for every
 * engine scenario, the same instance while the snapshot stands, new ones once another is published, and built per
 * call again when the kubelet reports devices.
 */
class PodResourcesServiceTest {

    static Stream<EngineStates.Scenario> scenarios() {
        return Stream.of(
                EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.POD, true), EngineStates.hybrid()),
                EngineStates.admit(
                        EngineStates.config(NodeConfig.TopologyScope.CONTAINER, true),
                        EngineStates.perContainer(),
                        EngineStates.bestEffort()),
                EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false)),
                EngineStates.admit(
                        EngineStates.config(NodeConfig.TopologyScope.POD, false),
                        EngineStates.bestEffort(),
                        EngineStates.hybrid()));
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void preparedAnswersEqualThoseBuiltPerCall(EngineStates.Scenario scenario) {
        PodResourcesSnapshot snapshot = scenario.snapshot();
        PodResourcesService service = new PodResourcesService(() -> snapshot, DeviceSource.NONE);

        assertThat(list(service)).isEqualTo(PodResourcesAnswers.list(snapshot, DeviceAssignments.NONE));
        assertThat(allocatable(service)).isEqualTo(PodResourcesAnswers.allocatable(snapshot, List.of()));
        for (ListedPod pod : snapshot.pods()) {
            assertThat(get(service, pod.ref().namespace(), pod.ref().name()))
                    .isEqualTo(PodResourcesAnswers.pod(snapshot, pod, DeviceAssignments.NONE));
        }
        assertThat(getError(service, "default", "absent")).contains("pod absent in namespace default not found");
        if (!snapshot.pods().isEmpty()) {
            ListedPod first = snapshot.pods().getFirst();
            assertThat(getError(service, "other", first.ref().name()))
                    .as("namespace and name are matched together")
                    .contains("not found");
        }
    }

    @Test
    void theSameAnswersServeEveryCallUntilAnotherSnapshotIsPublished() {
        var hybrid = EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.POD, true), EngineStates.hybrid());
        var bestEffort = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort());
        AtomicReference<PodResourcesSnapshot> published = new AtomicReference<>(hybrid.snapshot());
        PodResourcesService service = new PodResourcesService(published::get, DeviceSource.NONE);

        ListPodResourcesResponse first = list(service);
        PodResources firstGet = get(service, "default", "hybrid");
        AllocatableResourcesResponse firstAllocatable = allocatable(service);
        assertThat(list(service)).as("a lookup, not a new answer").isSameAs(first);
        assertThat(get(service, "default", "hybrid")).isSameAs(firstGet);
        assertThat(allocatable(service)).isSameAs(firstAllocatable);

        published.set(bestEffort.snapshot());
        assertThat(list(service).getPodResourcesList())
                .extracting(PodResources::getName)
                .containsExactly("besteffort");
        assertThat(getError(service, "default", "hybrid")).contains("not found");
        assertThat(allocatable(service)).isEqualTo(PodResourcesAnswers.allocatable(bestEffort.snapshot(), List.of()));

        published.set(new PodResourcesSnapshot(
                hybrid.snapshot().state(),
                hybrid.snapshot().pods(),
                hybrid.snapshot().allocatable()));
        assertThat(list(service))
                .as("an equal snapshot published again: a new version, equal answers")
                .isEqualTo(first);
    }

    @Test
    void devicesFromTheKubeletAreMergedPerCall() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort());
        ContainerDevices gpu = ContainerDevices.newBuilder()
                .setResourceName("nvidia.com/gpu")
                .addDeviceIds("GPU-0")
                .build();
        DeviceAssignments assigned = new DeviceAssignments(Map.of(
                new ContainerKey("default", "besteffort", "web"),
                new DeviceAssignments.Assigned(List.of(gpu), List.of())));
        DeviceSource kubelet = new FixedDevices(assigned, List.of(gpu));
        PodResourcesService service = new PodResourcesService(scenario::snapshot, kubelet);

        assertThat(list(service)).isEqualTo(PodResourcesAnswers.list(scenario.snapshot(), assigned));
        assertThat(list(service).getPodResources(0).getContainers(0).getDevicesList())
                .containsExactly(gpu);
        assertThat(get(service, "default", "besteffort").getContainers(0).getDevicesList())
                .containsExactly(gpu);
        assertThat(allocatable(service).getDevicesList()).containsExactly(gpu);
        assertThat(service.handlerThreads()).isEqualTo(HandlerThreads.EXECUTOR);
    }

    @Test
    void handlersRunOnTheEventLoopOnlyWhenNothingIsAskedOfTheKubelet() {
        var scenario = EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false));
        assertThat(new PodResourcesService(scenario::snapshot, DeviceSource.NONE).handlerThreads())
                .isEqualTo(HandlerThreads.EVENT_LOOP);
        try (KubeletDeviceSource kubelet =
                new KubeletDeviceSource(Path.of("/nonexistent/kubelet.sock"), Duration.ofSeconds(1))) {
            assertThat(new PodResourcesService(scenario::snapshot, kubelet).handlerThreads())
                    .isEqualTo(HandlerThreads.EXECUTOR);
        }
    }

    private record FixedDevices(DeviceAssignments assigned, List<ContainerDevices> allocatable)
            implements DeviceSource {

        @Override
        public Wait waits() {
            return Wait.REMOTE_CALL;
        }

        @Override
        public DeviceAssignments all() {
            return assigned;
        }

        @Override
        public DeviceAssignments pod(String namespace, String name) {
            return assigned;
        }

        @Override
        public void close() {}
    }

    private static ListPodResourcesResponse list(PodResourcesService service) {
        Answer<ListPodResourcesResponse> a = new Answer<>();
        service.list(ListPodResourcesRequest.getDefaultInstance(), a);
        return a.value();
    }

    private static PodResources get(PodResourcesService service, String namespace, String name) {
        Answer<GetPodResourcesResponse> a = new Answer<>();
        service.get(request(namespace, name), a);
        return a.value().getPodResources();
    }

    private static String getError(PodResourcesService service, String namespace, String name) {
        Answer<GetPodResourcesResponse> a = new Answer<>();
        service.get(request(namespace, name), a);
        assertThat(a.values).isEmpty();
        assertThat(a.error).isNotNull();
        return a.error.getMessage();
    }

    private static AllocatableResourcesResponse allocatable(PodResourcesService service) {
        Answer<AllocatableResourcesResponse> a = new Answer<>();
        service.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance(), a);
        return a.value();
    }

    private static GetPodResourcesRequest request(String namespace, String name) {
        return GetPodResourcesRequest.newBuilder()
                .setPodNamespace(namespace)
                .setPodName(name)
                .build();
    }

    /** One unary answer as the service hands it to gRPC. */
    private static final class Answer<T> implements StreamObserver<T> {
        final List<T> values = new ArrayList<>();
        Throwable error;
        boolean completed;

        @Override
        public void onNext(T value) {
            values.add(value);
        }

        @Override
        public void onError(Throwable t) {
            error = t;
        }

        @Override
        public void onCompleted() {
            completed = true;
        }

        T value() {
            assertThat(error).isNull();
            assertThat(values).hasSize(1);
            assertThat(completed).isTrue();
            return values.getFirst();
        }
    }
}
