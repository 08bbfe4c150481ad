package io.podnuma.demo.pinning;

import io.grpc.ManagedChannel;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The call a monitoring agent or device plugin makes on the PodResources socket: {@code List}. */
final class PodResourcesClient {

    private PodResourcesClient() {}

    static ListPodResourcesResponse list(Path socket) throws InterruptedException {
        ManagedChannel channel = DomainSocketChannels.open(socket);
        try {
            return PodResourcesListerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .list(ListPodResourcesRequest.getDefaultInstance());
        } finally {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
