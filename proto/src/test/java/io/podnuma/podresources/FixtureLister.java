package io.podnuma.podresources;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A PodResources server that answers with {@link WireFixtures} and remembers the Get requests it saw. */
final class FixtureLister extends PodResourcesListerGrpc.PodResourcesListerImplBase {

    final List<GetPodResourcesRequest> getRequests = new CopyOnWriteArrayList<>();

    @Override
    public void list(ListPodResourcesRequest request, StreamObserver<ListPodResourcesResponse> response) {
        response.onNext(WireFixtures.listResponse());
        response.onCompleted();
    }

    @Override
    public void get(GetPodResourcesRequest request, StreamObserver<GetPodResourcesResponse> response) {
        getRequests.add(request);
        for (PodResources pod : WireFixtures.listResponse().getPodResourcesList()) {
            if (pod.getName().equals(request.getPodName()) && pod.getNamespace().equals(request.getPodNamespace())) {
                response.onNext(GetPodResourcesResponse.newBuilder()
                        .setPodResources(pod)
                        .build());
                response.onCompleted();
                return;
            }
        }
        response.onError(Status.NOT_FOUND
                .withDescription("pod " + request.getPodNamespace() + "/" + request.getPodName() + " not found")
                .asRuntimeException());
    }

    @Override
    public void getAllocatableResources(
            AllocatableResourcesRequest request, StreamObserver<AllocatableResourcesResponse> response) {
        response.onNext(WireFixtures.allocatableResponse());
        response.onCompleted();
    }
}
