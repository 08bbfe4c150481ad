package io.podnuma.podresources;

import static io.podnuma.podresources.RawConnections.bytesUntilClosed;
import static io.podnuma.podresources.RawConnections.connect;
import static io.podnuma.podresources.RawConnections.firstBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector;
import io.grpc.netty.shaded.io.netty.util.concurrent.FastThreadLocalThread;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.podresources.v1.PodResourcesListerGrpc.PodResourcesListerBlockingStub;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Java server and client talking over a real unix domain socket, and the socket file's lifecycle. */
class DomainSocketServerTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void needsEpoll() {
        Assumptions.assumeTrue(
                Epoll.isAvailable(),
                () -> "skipped: Netty epoll is unavailable here (" + Epoll.unavailabilityCause()
                        + "); PodResourcesWireFormatTest still covers the messages");
    }

    @Test
    void servesAllThreeMethodsOverTheSocket() throws Exception {
        FixtureLister lister = new FixtureLister();
        List<String> seenMethods = new CopyOnWriteArrayList<>();
        ServerInterceptor recordMethod = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                seenMethods.add(call.getMethodDescriptor().getFullMethodName());
                return next.startCall(call, headers);
            }
        };
        ServerServiceDefinition intercepted = ServerInterceptors.intercept(lister, recordMethod);
        try (DomainSocketServer server = DomainSocketServer.start(dir.resolve("pr.sock"), List.of(intercepted))) {
            withClient(server.socket(), stub -> {
                assertThat(stub.list(ListPodResourcesRequest.getDefaultInstance()))
                        .isEqualTo(WireFixtures.listResponse());
                WireFixtures.assertGetAndAllocatable(stub);
            });
            assertThat(lister.getRequests).extracting(r -> r.getPodName()).containsExactly("numa-db", "absent");
            assertThat(seenMethods)
                    .containsExactly(
                            "v1.PodResourcesLister/List",
                            "v1.PodResourcesLister/Get",
                            "v1.PodResourcesLister/GetAllocatableResources",
                            "v1.PodResourcesLister/Get");
        }
    }

    /** Where the unary handler runs (it is called from the listener's half-close): by the threads asked for. */
    @ParameterizedTest
    @EnumSource(HandlerThreads.class)
    void handlersRunOnTheThreadsAskedFor(HandlerThreads threads) throws Exception {
        List<Thread> handlerThreads = new CopyOnWriteArrayList<>();
        ServerInterceptor recordThread = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                        next.startCall(call, headers)) {
                    @Override
                    public void onHalfClose() {
                        handlerThreads.add(Thread.currentThread());
                        super.onHalfClose();
                    }
                };
            }
        };
        ServerServiceDefinition intercepted = ServerInterceptors.intercept(new FixtureLister(), recordThread);
        try (DomainSocketServer server =
                DomainSocketServer.start(dir.resolve("threads.sock"), List.of(intercepted), threads)) {
            withClient(server.socket(), stub -> {
                for (int i = 0; i < 3; i++) {
                    assertThat(stub.list(ListPodResourcesRequest.getDefaultInstance()))
                            .isEqualTo(WireFixtures.listResponse());
                }
            });
        }
        assertThat(handlerThreads).hasSize(3);
        if (threads == HandlerThreads.EVENT_LOOP) {
            assertThat(handlerThreads)
                    .as("every call on the one event loop thread")
                    .allMatch(t -> t instanceof FastThreadLocalThread)
                    .containsOnly(handlerThreads.getFirst());
        } else {
            assertThat(handlerThreads).noneMatch(t -> t instanceof FastThreadLocalThread);
        }
    }

    @Test
    void leakTracesAreOffUnlessThePropertyAsksForThem() throws Exception {
        Assumptions.assumeTrue(
                System.getProperty(DomainSocketServer.LEAK_DETECTION_PROPERTY) == null,
                "skipped: " + DomainSocketServer.LEAK_DETECTION_PROPERTY + " is set for this run");
        try (DomainSocketServer ignored =
                DomainSocketServer.start(dir.resolve("leak.sock"), List.of(new FixtureLister().bindService()))) {
            assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.DISABLED);
        }
    }

    @Test
    void replacesAStaleSocketAndRemovesItsOwnOnClose() throws Exception {
        Path socket = dir.resolve("stale.sock");
        try (ServerSocketChannel previous = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            previous.bind(UnixDomainSocketAddress.of(socket));
        }
        assertThat(socket)
                .as("closing a JDK listener leaves its socket file behind")
                .exists();

        try (DomainSocketServer server = DomainSocketServer.start(socket, List.of(new FixtureLister().bindService()))) {
            withClient(
                    server.socket(),
                    stub -> assertThat(stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance())
                                    .getCpuIdsCount())
                            .isEqualTo(14));
        }
        assertThat(socket).doesNotExist();
    }

    @Test
    void refusesToDeleteARegularFileInTheWay() throws IOException {
        Path socket = Files.writeString(dir.resolve("config.yaml"), "keep me");
        assertThatThrownBy(() -> DomainSocketServer.start(socket, List.of(new FixtureLister().bindService())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(socket.toString())
                .hasMessageContaining("regular file");
        assertThat(socket).hasContent("keep me");
    }

    @Test
    void namesAMissingDirectory() {
        Path socket = dir.resolve("missing/pr.sock");
        assertThatThrownBy(() -> DomainSocketServer.start(socket, List.of(new FixtureLister().bindService())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(dir.resolve("missing").toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void rejectsPathsLongerThanTheKernelAllows() {
        Path socket = dir.resolve("s".repeat(DomainSocketPaths.MAX_PATH_BYTES) + ".sock");
        assertThatThrownBy(() -> DomainSocketChannels.open(socket))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 107");
    }

    /**
     * The cap holds: four silent connections take every place and three more are closed before the server sends a
     * byte, while the four got the server's HTTP/2 settings. A gRPC call then fails at once, and succeeds once one
     * of the four has gone. The handshake timeout is long here so the four stay until the test lets them go.
     */
    @Test
    void connectionsBeyondTheCapAreClosedAtOnceAndAClientGetsInWhenOneLeaves() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(4, Duration.ofMinutes(5), Duration.ofMinutes(5));
        List<SocketChannel> held = new ArrayList<>();
        try (DomainSocketServer server = DomainSocketServer.start(
                dir.resolve("cap.sock"), List.of(new FixtureLister().bindService()), HandlerThreads.EXECUTOR, limits)) {
            try {
                for (int i = 0; i < 4; i++) {
                    SocketChannel ch = connect(server.socket());
                    held.add(ch);
                    assertThat(firstBytes(ch)).as("connection %d is served", i).isPositive();
                }
                for (int i = 0; i < 3; i++) {
                    try (SocketChannel excess = connect(server.socket())) {
                        assertThat(bytesUntilClosed(excess, Duration.ofSeconds(30)))
                                .as("connection %d beyond the cap is closed before any byte", i)
                                .isZero();
                    }
                }
                withClient(
                        server.socket(),
                        stub -> assertThatThrownBy(() -> stub.list(ListPodResourcesRequest.getDefaultInstance()))
                                .isInstanceOfSatisfying(
                                        StatusRuntimeException.class,
                                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE)));

                held.removeFirst().close();
                withClient(
                        server.socket(),
                        stub -> assertThat(stub.withWaitForReady().list(ListPodResourcesRequest.getDefaultInstance()))
                                .isEqualTo(WireFixtures.listResponse()));
            } finally {
                // Before the server closes: it waits for open connections to end.
                for (SocketChannel ch : held) {
                    ch.close();
                }
            }
        }
    }

    /**
     * Silent connections fill the cap and are closed after the handshake timeout, freeing their places: a gRPC call
     * that waits for the socket gets in. With gRPC's own default (120 s) the bounded waits below would fail.
     */
    @Test
    void silentConnectionsAreClosedAfterTheHandshakeTimeoutAndTheirPlacesServeAClient() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(2, Duration.ofMillis(500), Duration.ofMinutes(5));
        try (DomainSocketServer server = DomainSocketServer.start(
                        dir.resolve("silent.sock"),
                        List.of(new FixtureLister().bindService()),
                        HandlerThreads.EXECUTOR,
                        limits);
                SocketChannel first = connect(server.socket());
                SocketChannel second = connect(server.socket())) {
            withClient(
                    server.socket(),
                    stub -> assertThat(stub.withWaitForReady().list(ListPodResourcesRequest.getDefaultInstance()))
                            .isEqualTo(WireFixtures.listResponse()));
            assertThat(bytesUntilClosed(first, Duration.ofSeconds(30)))
                    .as("the server's settings, then the close")
                    .isPositive();
            assertThat(bytesUntilClosed(second, Duration.ofSeconds(30))).isPositive();
        }
    }

    /**
     * A gRPC client that made its call and keeps its connection open is told goodbye after the idle timeout; with a
     * cap of one, a second client waiting for the socket gets in only because of that.
     */
    @Test
    void aConnectionWithoutCallsIsClosedAfterTheIdleTimeout() throws Exception {
        ConnectionLimits limits = new ConnectionLimits(1, Duration.ofSeconds(30), Duration.ofMillis(500));
        try (DomainSocketServer server = DomainSocketServer.start(
                dir.resolve("idle.sock"),
                List.of(new FixtureLister().bindService()),
                HandlerThreads.EXECUTOR,
                limits)) {
            ManagedChannel idle = DomainSocketChannels.open(server.socket());
            try {
                assertThat(PodResourcesListerGrpc.newBlockingStub(idle)
                                .withDeadlineAfter(30, TimeUnit.SECONDS)
                                .list(ListPodResourcesRequest.getDefaultInstance()))
                        .isEqualTo(WireFixtures.listResponse());
                withClient(
                        server.socket(),
                        stub -> assertThat(stub.withWaitForReady().list(ListPodResourcesRequest.getDefaultInstance()))
                                .isEqualTo(WireFixtures.listResponse()));
            } finally {
                idle.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void refusesLimitsThatMakeNoSense() {
        assertThatThrownBy(() -> new ConnectionLimits(0, Duration.ofSeconds(10), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed 1 to 65536");
        assertThatThrownBy(() -> new ConnectionLimits(64, Duration.ZERO, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("handshake timeout PT0S: allowed a positive duration");
        assertThatThrownBy(() -> new ConnectionLimits(64, Duration.ofSeconds(10), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idle timeout PT-1S: allowed a positive duration");
    }

    private interface StubUse {
        void accept(PodResourcesListerBlockingStub stub) throws Exception;
    }

    private static void withClient(Path socket, StubUse use) throws Exception {
        ManagedChannel channel = DomainSocketChannels.open(socket);
        try {
            use.accept(PodResourcesListerGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS));
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
