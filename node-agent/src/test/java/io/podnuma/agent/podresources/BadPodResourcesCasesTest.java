package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.podresources.ConnectionLimits;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.RawConnections;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's PodResources requests, sent as raw bytes to the agent's endpoint on its unix socket (the agent's
 * own service, rate limit and limits): each gets the status the kubelet would give, or the answer a well-formed
 * request gets, and afterwards the endpoint still answers {@code List} exactly as before.
 */
class BadPodResourcesCasesTest {

    private static final InputKind KIND = InputKind.POD_RESOURCES;
    private static final String KEPT = "the endpoint still serves: List answers byte for byte as before the request";
    private static final String LIST = PodResourcesListerGrpc.getListMethod().getFullMethodName();
    private static final String GET = PodResourcesListerGrpc.getGetMethod().getFullMethodName();

    /** A case's request: the method's full name, the body's bytes, how many times it is sent. */
    record Request(String method, byte[] body, int times) {}

    private static final Map<String, Request> REQUESTS = new HashMap<>();

    /** The cap small and the handshake timeout short, so the idle flood fills one and outlives the other quickly. */
    private static final ConnectionLimits LIMITS =
            new ConnectionLimits(4, Duration.ofSeconds(2), ConnectionLimits.DEFAULT.maxIdle());

    @TempDir
    Path dir;

    private ManagedChannel channel;

    @AfterEach
    void closeChannel() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    static List<BadInput> cases() {
        return List.of(
                call(
                        "pr-malformed",
                        "bytes that are no protobuf",
                        LIST,
                        hex("ffffffff"),
                        "INTERNAL: cannot parse the request of v1.PodResourcesLister/List as its protobuf message: While parsing a protocol message, the input ended unexpectedly in the middle of a field.  This could mean either that the input has been truncated or that an embedded message misreported its own length."),
                call(
                        "pr-truncated",
                        "a field whose length runs past the end",
                        GET,
                        hex("0a0a6162"),
                        "INTERNAL: cannot parse the request of v1.PodResourcesLister/Get as its protobuf message: While parsing a protocol message, the input ended unexpectedly in the middle of a field.  This could mean either that the input has been truncated or that an embedded message misreported its own length."),
                call(
                        "pr-bad-utf8",
                        "a pod name that is no UTF-8",
                        GET,
                        hex("0a02c328"),
                        "INTERNAL: cannot parse the request of v1.PodResourcesLister/Get as its protobuf message: Protocol message had invalid UTF-8."),
                call(
                        "pr-unknown-field",
                        "a field the message does not have",
                        LIST,
                        hex("b806" + "01"),
                        "OK: the node's pods [default/classic], as without the field"),
                call(
                        "pr-wrong-wire-type",
                        "the pod name sent as a number",
                        GET,
                        hex("0801"),
                        "NOT_FOUND: pod  in namespace  not found"),
                call(
                        "pr-oversized",
                        "a request of 100 KiB",
                        LIST,
                        oversized(),
                        "RESOURCE_EXHAUSTED: gRPC message exceeds maximum size 65536: 102404"),
                call(
                        "pr-get-empty",
                        "Get without namespace or name",
                        GET,
                        new byte[0],
                        "NOT_FOUND: pod  in namespace  not found"),
                call(
                        "pr-get-unknown-pod",
                        "Get of a pod the node does not run",
                        GET,
                        hex("0a046e6f6e65" + "1204" + "70726f64"),
                        "NOT_FOUND: pod none in namespace prod not found"),
                call(
                        "pr-unknown-method",
                        "a method the service does not have",
                        "v1.PodResourcesLister/Watch",
                        new byte[0],
                        "UNIMPLEMENTED: Method not found: v1.PodResourcesLister/Watch"),
                call(
                        "pr-unknown-service",
                        "a service version the agent does not serve",
                        "v1alpha1.PodResourcesLister/List",
                        new byte[0],
                        "UNIMPLEMENTED: Method not found: v1alpha1.PodResourcesLister/List"),
                new BadInput(
                        "pr-flood",
                        KIND,
                        "a flood past the rate limit (burst 4 of which one call took a token, refilled one each 2 s)",
                        "List sent 4 times at once",
                        List.of("OK", "OK", "OK", "RESOURCE_EXHAUSTED: rejected by rate limit"),
                        KEPT),
                new BadInput(
                        "pr-idle-connections",
                        KIND,
                        "a flood of idle connections past the connection cap (cap 4, handshake timeout 2 s)",
                        "8 connections that send nothing, beside the test's own client",
                        List.of(
                                "3 connections: the server's HTTP/2 settings, then closed after the handshake timeout",
                                "5 connections: closed before any byte (4 open, the cap, with the client's own)"),
                        KEPT),
                new BadInput(
                        "pr-not-http2",
                        KIND,
                        "bytes that are no HTTP/2 on the socket",
                        "GET / HTTP/1.1",
                        List.of(
                                "the server closes the connection after a reply naming: + Unexpected HTTP/1.x request: GET /"),
                        KEPT));
    }

    private static BadInput call(String id, String wrong, String method, byte[] body, String... answer) {
        REQUESTS.put(id, new Request(method, body, 1));
        return new BadInput(
                id,
                KIND,
                wrong,
                method + " with body "
                        + (body.length > 32
                                ? body.length + " bytes"
                                : HexFormat.of().formatHex(body)),
                List.of(answer),
                KEPT);
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    /** An unknown length-delimited field 15 of 100 KiB. */
    private static byte[] oversized() {
        int n = 100 * 1024;
        ByteBuffer b = ByteBuffer.allocate(n + 4);
        b.put((byte) 0x7a)
                .put((byte) (0x80 | (n & 0x7f)))
                .put((byte) (0x80 | ((n >> 7) & 0x7f)))
                .put((byte) (n >> 14));
        b.put(new byte[n]);
        return b.array();
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private String send(String method, byte[] body) {
        MethodDescriptor<byte[], byte[]> m = MethodDescriptor.<byte[], byte[]>newBuilder(BYTES, BYTES)
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(method)
                .build();
        try {
            byte[] reply = ClientCalls.blockingUnaryCall(
                    channel, m, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), body);
            return "OK: " + describe(method, reply);
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode() + ": " + e.getStatus().getDescription();
        }
    }

    private static String describe(String method, byte[] reply) {
        if (!method.equals(LIST)) {
            return reply.length + " bytes";
        }
        try {
            var pods = ListPodResourcesResponse.parseFrom(reply).getPodResourcesList().stream()
                    .map(p -> p.getNamespace() + "/" + p.getName())
                    .toList();
            return "the node's pods " + pods + ", as without the field";
        } catch (IOException e) {
            return "an unreadable reply: " + e.getMessage();
        }
    }

    /** A token each 2 s. */
    private static final double FLOOD_QPS = 0.5;

    @ParameterizedTest
    @MethodSource("cases")
    void theEndpointAnswersExactlyAndKeepsServing(BadInput c) throws Exception {
        Path socket = dir.resolve("podnuma.sock");
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.perContainer());
        PodResourcesService service =
                new PodResourcesService(new AtomicReference<>(scenario.snapshot())::get, DeviceSource.NONE);
        // The flood's bucket refills slowly, so that a loaded host taking its time over four calls cannot hand out a
        // fifth token; every other case has tokens to spare for its call and the two checks around it.
        boolean flood = c.id().equals("pr-flood");
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                new PodResourcesEndpoint.Settings(socket, 0600, flood ? FLOOD_QPS : 10, flood ? 4 : 3)
                        .withConnections(LIMITS),
                service)) {
            channel = DomainSocketChannels.open(socket);
            var stub = PodResourcesListerGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
            ListPodResourcesResponse before = stub.list(ListPodResourcesRequest.getDefaultInstance());

            List<String> answer = new ArrayList<>();
            switch (c.id()) {
                case "pr-flood" -> {
                    for (int i = 0; i < 4; i++) {
                        answer.add(send(LIST, new byte[0]).replaceAll("^OK: .*", "OK"));
                    }
                    Thread.sleep((long) (1000 / FLOOD_QPS) + 500); // a token for the check below
                }
                case "pr-not-http2" -> answer.add(raw(socket, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
                case "pr-idle-connections" -> answer.addAll(idleConnections(socket, 8));
                default -> {
                    Request r = REQUESTS.get(c.id());
                    answer.add(send(r.method(), r.body()));
                }
            }

            c.assertAnswer(answer);
            assertThat(stub.list(ListPodResourcesRequest.getDefaultInstance())).isEqualTo(before);
        }
    }

    /** Writes {@code text} on a connection of its own and says how the server ended it. */
    private static String raw(Path socket, String text) throws IOException {
        try (SocketChannel ch = RawConnections.connect(socket)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer in = ByteBuffer.allocate(4096);
            int total = 0;
            while (ch.read(in) >= 0) {
                total = in.position();
                if (!in.hasRemaining()) {
                    break;
                }
            }
            String got = new String(in.array(), 0, total, StandardCharsets.ISO_8859_1);
            int goAway = got.indexOf("\u0007"); // not parsed: the server's bytes before it closed, as text
            return "the server closes the connection after "
                    + (total == 0 ? "sending nothing" : "a reply naming: " + printable(got)) + (goAway < 0 ? "" : "");
        }
    }

    /**
     * Opens {@code n} connections that send nothing, then waits (at most 30 s each) for the server to close each, and
     * sorts them by whether it sent its HTTP/2 settings first (served until the handshake timeout) or nothing
     * (closed at once beyond the cap).
     */
    private static List<String> idleConnections(Path socket, int n) throws IOException {
        List<SocketChannel> open = new ArrayList<>();
        int served = 0;
        int refused = 0;
        try {
            for (int i = 0; i < n; i++) {
                open.add(RawConnections.connect(socket));
            }
            for (SocketChannel ch : open) {
                if (RawConnections.bytesUntilClosed(ch, Duration.ofSeconds(30)) > 0) {
                    served++;
                } else {
                    refused++;
                }
            }
        } finally {
            for (SocketChannel ch : open) {
                ch.close();
            }
        }
        return List.of(
                served + " connections: the server's HTTP/2 settings, then closed after the handshake timeout",
                refused + " connections: closed before any byte (" + LIMITS.maxConnections()
                        + " open, the cap, with the client's own)");
    }

    private static String printable(String s) {
        return s.replaceAll("[^\\x20-\\x7e]+", " ").strip();
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
