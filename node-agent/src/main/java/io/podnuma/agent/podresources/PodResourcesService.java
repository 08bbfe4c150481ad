package io.podnuma.agent.podresources;

import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.podnuma.podresources.HandlerThreads;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The PodResources v1 {@code PodResourcesLister}. Every call reads the latest published snapshot once and
 * answers from it alone, so an answer is consistent and never waits for the engine; the supplier must return
 * at once (e.g. an {@code AtomicReference::get} the agent publishes to after each decision). Until the first
 * snapshot is published (it returns null) every call fails with {@code UNAVAILABLE}, so clients retry rather
 * than see an empty node.
 *
 * <p>The answers of one snapshot are built once ({@link PreparedAnswers}), by the first call that sees it, and
 * reused by every later call until the agent publishes another snapshot (compared by identity: a new object is
 * a new version). The loop thread only publishes; it never builds answers nobody may ask for. Only when the
 * kubelet reports devices for the pods asked about is an answer built per call (the devices are the kubelet's
 * answer of that moment).
 */
public final class PodResourcesService extends PodResourcesListerGrpc.PodResourcesListerImplBase {

    private final Supplier<PodResourcesSnapshot> snapshots;
    private final DeviceSource devices;
    private volatile PreparedAnswers prepared;

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
        DeviceAssignments assigned = devices.all();
        response.onNext(
                assigned.containers().isEmpty()
                        ? prepared(snapshot).list()
                        : PodResourcesAnswers.list(snapshot, assigned));
        response.onCompleted();
    }

    @Override
    public void get(GetPodResourcesRequest request, StreamObserver<GetPodResourcesResponse> response) {
        PodResourcesSnapshot snapshot = snapshots.get();
        if (snapshot == null) {
            response.onError(notReady());
            return;
        }
        Optional<PreparedAnswers.Pod> pod = prepared(snapshot).pod(request.getPodNamespace(), request.getPodName());
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
                .setPodResources(
                        assigned.containers().isEmpty()
                                ? pod.get().answer()
                                : PodResourcesAnswers.pod(snapshot, pod.get().listed(), assigned))
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
        List<ContainerDevices> allocatable = devices.allocatable();
        response.onNext(
                allocatable.isEmpty()
                        ? prepared(snapshot).allocatable()
                        : PodResourcesAnswers.allocatable(snapshot, allocatable));
        response.onCompleted();
    }

    /**
     * The service as the endpoint serves it: {@link #bindService()} with the answers of {@code List} and
     * {@code GetAllocatableResources} serialized once per prepared message ({@link SerializedOnce}). {@code Get}
     * wraps its pod's answer in a new response per call, so it keeps the plain marshaller.
     */
    public ServerServiceDefinition definition() {
        ServerServiceDefinition plain = bindService();
        ServerServiceDefinition.Builder out =
                ServerServiceDefinition.builder(plain.getServiceDescriptor().getName());
        for (ServerMethodDefinition<?, ?> method : plain.getMethods()) {
            out.addMethod(servedOnce(method));
        }
        return out.build();
    }

    private static <Q, A> ServerMethodDefinition<Q, A> servedOnce(ServerMethodDefinition<Q, A> method) {
        MethodDescriptor<Q, A> d = method.getMethodDescriptor();
        boolean prepared = d.getFullMethodName()
                        .equals(PodResourcesListerGrpc.getListMethod().getFullMethodName())
                || d.getFullMethodName()
                        .equals(PodResourcesListerGrpc.getGetAllocatableResourcesMethod()
                                .getFullMethodName());
        if (!prepared) {
            return method;
        }
        return ServerMethodDefinition.create(
                d.toBuilder(d.getRequestMarshaller(), new SerializedOnce<>(d.getResponseMarshaller()))
                        .build(),
                method.getServerCallHandler());
    }

    /** How the PodResources threads may run these handlers: they wait on nothing unless the kubelet is asked. */
    public HandlerThreads handlerThreads() {
        return devices.waits() == DeviceSource.Wait.NEVER ? HandlerThreads.EVENT_LOOP : HandlerThreads.EXECUTOR;
    }

    /**
     * The answers of this snapshot: those already built if they are of it, else built now and kept. Two calls
     * that see a new snapshot at once may both build; the answers are equal and either is kept.
     */
    private PreparedAnswers prepared(PodResourcesSnapshot snapshot) {
        PreparedAnswers p = prepared;
        if (p == null || p.snapshot() != snapshot) {
            p = PreparedAnswers.of(snapshot);
            prepared = p;
        }
        return p;
    }

    private static StatusRuntimeException notReady() {
        return Status.UNAVAILABLE
                .withDescription("the podnuma node agent has not finished its first pod sync yet; retry shortly")
                .asRuntimeException();
    }
}
