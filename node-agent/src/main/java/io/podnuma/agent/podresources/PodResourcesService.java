package io.podnuma.agent.podresources;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The PodResources v1 {@code PodResourcesLister}. Every call reads the latest published snapshot once and
 * answers from it alone, so an answer is consistent and never waits for the engine; the supplier must return
 * at once (e.g. an {@code AtomicReference::get} the agent publishes to after each decision). Until the first
 * snapshot is published (it returns null) every call fails with {@code UNAVAILABLE}, so clients retry rather
 * than see an empty node.
 */
public final class PodResourcesService extends PodResourcesListerGrpc.PodResourcesListerImplBase {

    private final Supplier<PodResourcesSnapshot> snapshots;
    private final DeviceSource devices;

    public PodResourcesService(Supplier<PodResourcesSnapshot> snapshots, DeviceSource devices) {
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.devices = Objects.requireNonNull(devices, "devices");
    }

    @Override
    public void list(ListPodResourcesRequest request, StreamObserver<ListPodResourcesResponse> response) {
        PodResourcesSnapshot snapshot = snapshots.get();
        if (snapshot == null) {
            response.onError(notReady());
            return;
        }
        response.onNext(PodResourcesAnswers.list(snapshot, devices.all()));
        response.onCompleted();
    }

    @Override
    public void get(GetPodResourcesRequest request, StreamObserver<GetPodResourcesResponse> response) {
        PodResourcesSnapshot snapshot = snapshots.get();
        if (snapshot == null) {
            response.onError(notReady());
            return;
        }
        Optional<ListedPod> pod = PodResourcesAnswers.find(snapshot, request.getPodNamespace(), request.getPodName());
        if (pod.isEmpty()) {
            // The kubelet's wording, but with a NotFound code (the kubelet sends Unknown) so clients can tell.
            response.onError(Status.NOT_FOUND
                    .withDescription(
                            "pod " + request.getPodName() + " in namespace " + request.getPodNamespace() + " not found")
                    .asRuntimeException());
            return;
        }
        DeviceAssignments assigned = devices.pod(request.getPodNamespace(), request.getPodName());
        response.onNext(GetPodResourcesResponse.newBuilder()
                .setPodResources(PodResourcesAnswers.pod(snapshot, pod.get(), assigned))
                .build());
        response.onCompleted();
    }

    @Override
    public void getAllocatableResources(
            AllocatableResourcesRequest request, StreamObserver<AllocatableResourcesResponse> response) {
        PodResourcesSnapshot snapshot = snapshots.get();
        if (snapshot == null) {
            response.onError(notReady());
            return;
        }
        response.onNext(PodResourcesAnswers.allocatable(snapshot, devices.allocatable()));
        response.onCompleted();
    }

    private static StatusRuntimeException notReady() {
        return Status.UNAVAILABLE
                .withDescription("the podnuma node agent has not finished its first pod sync yet; retry shortly")
                .asRuntimeException();
    }
}
