package io.podnuma.podresources;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;

/** Opens plaintext gRPC channels to a unix domain socket, e.g. the kubelet's PodResources socket. */
public final class DomainSocketChannels {

    private DomainSocketChannels() {}

    /**
     * A channel to {@code socket}. It connects lazily, so a missing server shows as {@code UNAVAILABLE}
     * on the first call, not here.
     */
    public static ManagedChannel open(Path socket) {
        DomainSocketServer.requireEpoll();
        DomainSocketPaths.checkLength(socket);
        return Grpc.newChannelBuilder("unix://" + socket.toAbsolutePath(), InsecureChannelCredentials.create())
                .build();
    }
}
