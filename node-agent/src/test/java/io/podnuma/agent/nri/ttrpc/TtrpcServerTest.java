package io.podnuma.agent.nri.ttrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.podnuma.agent.nri.mux.Mux;
import io.podnuma.agent.nri.mux.MuxChannel;
import io.podnuma.ttrpc.Request;
import io.podnuma.ttrpc.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server behind a real mux on a unix socket pair, called by our client or by raw frames. */
class TtrpcServerTest {

    private static final ServiceMethod ECHO = new ServiceMethod("test.Service", "Echo");
    private static final ServiceMethod FAIL = new ServiceMethod("test.Service", "Fail");
    private static final ServiceMethod REFUSE = new ServiceMethod("test.Service", "Refuse");
    private static final ServiceMethod HANG = new ServiceMethod("test.Service", "Hang");

    @TempDir
    Path dir;

    private final CountDownLatch hangInterrupted = new CountDownLatch(1);
    private final LinkedBlockingQueue<String> answered = new LinkedBlockingQueue<>();
    private Mux clientSide;
    private Mux serverSide;
    private TtrpcClient client;

    @BeforeEach
    void connect() throws Exception {
        Path socket = dir.resolve("t.sock");
        SocketChannel left;
        SocketChannel right;
        try (ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listener.bind(UnixDomainSocketAddress.of(socket));
            left = SocketChannel.open(UnixDomainSocketAddress.of(socket));
            right = listener.accept();
        }
        clientSide = new Mux(left, "client").start();
        serverSide = new Mux(right, "server").start();
        Map<ServiceMethod, UnaryHandler> handlers = Map.of(
                ECHO, request -> request,
                FAIL,
                        request -> {
                            throw new IllegalStateException("the handler broke");
                        },
                REFUSE,
                        request -> {
                            throw new TtrpcException(StatusCode.FAILED_PRECONDITION, "not now");
                        },
                HANG,
                        request -> {
                            try {
                                new CountDownLatch(1).await();
                            } catch (InterruptedException e) {
                                hangInterrupted.countDown();
                            }
                            return new byte[0];
                        });
        TtrpcServer server =
                new TtrpcServer("test", handlers, (method, code, nanos) -> answered.add(method.method() + " " + code));
        Thread.ofVirtual().start(() -> {
            try {
                server.serve(
                        serverSide.input(MuxChannel.PLUGIN_SERVICE),
                        f -> serverSide.send(MuxChannel.PLUGIN_SERVICE, f));
            } catch (IOException e) {
                serverSide.close("server: " + e.getMessage());
            }
        });
        client = new TtrpcClient("test", f -> clientSide.send(MuxChannel.PLUGIN_SERVICE, f));
        Thread.ofVirtual().start(() -> {
            try {
                client.receive(clientSide.input(MuxChannel.PLUGIN_SERVICE));
            } catch (IOException e) {
                // the raw tests read this conn themselves
            }
        });
    }

    @AfterEach
    void close() {
        clientSide.close();
        serverSide.close();
    }

    @Test
    void aKnownMethodAnswersWithItsHandlersBytesEvenForThreeMegabytes() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024];
        new java.util.Random(7).nextBytes(big);

        assertThat(client.call(ECHO, big, Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS))
                .isEqualTo(big);
        assertThat(answered.poll(5, TimeUnit.SECONDS)).isEqualTo("Echo OK");
    }

    @Test
    void anUnknownMethodIsUnimplemented() throws Exception {
        var call = client.call(new ServiceMethod("test.Service", "Nope"), new byte[0], Duration.ofSeconds(5));

        TtrpcException e = TtrpcClientTest.failure(call);
        assertThat(e.code()).isEqualTo(StatusCode.UNIMPLEMENTED);
        assertThat(e.statusMessage()).isEqualTo("test.Service/Nope is not implemented");
        assertThat(answered.poll(5, TimeUnit.SECONDS)).isEqualTo("Nope UNIMPLEMENTED");
    }

    @Test
    void aHandlerExceptionIsUnknownWithItsMessageOrItsOwnCode() {
        TtrpcException broke = TtrpcClientTest.failure(client.call(FAIL, new byte[0], Duration.ofSeconds(5)));
        TtrpcException refused = TtrpcClientTest.failure(client.call(REFUSE, new byte[0], Duration.ofSeconds(5)));

        assertThat(broke.code()).isEqualTo(StatusCode.UNKNOWN);
        assertThat(broke.statusMessage()).isEqualTo("the handler broke");
        assertThat(refused.code()).isEqualTo(StatusCode.FAILED_PRECONDITION);
        assertThat(refused.statusMessage()).isEqualTo("not now");
    }

    @Test
    void aHandlerOverrunningTheCallersDeadlineIsAnsweredDeadlineExceededAndInterrupted() throws Exception {
        // a raw request with a short timeout_nano, answered by the server before our client would give up
        Request request = Request.newBuilder()
                .setService(HANG.service())
                .setMethod(HANG.method())
                .setTimeoutNano(Duration.ofMillis(50).toNanos())
                .build();
        clientSide.send(
                MuxChannel.PLUGIN_SERVICE,
                TtrpcFrames.encode(new TtrpcFrame(1, TtrpcFrameType.REQUEST, 0, request.toByteArray())));

        assertThat(answered.poll(5, TimeUnit.SECONDS)).isEqualTo("Hang DEADLINE_EXCEEDED");
        assertThat(hangInterrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void evenOrRepeatedStreamIdsAreRefusedOnThatStreamAndServingGoesOn() throws Exception {
        // raw frames into a server of their own: Go answers each of these on its stream id and reads on
        TtrpcServer plain = new TtrpcServer("raw", Map.of(ECHO, r -> r), (m, c, n) -> {});
        LinkedBlockingQueue<byte[]> out = new LinkedBlockingQueue<>();
        byte[] echo = Request.newBuilder()
                .setService(ECHO.service())
                .setMethod(ECHO.method())
                .setPayload(ByteString.copyFromUtf8("hi"))
                .build()
                .toByteArray();
        java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
        frames.write(TtrpcFrames.encode(new TtrpcFrame(2, TtrpcFrameType.REQUEST, 0, echo)));
        frames.write(TtrpcFrames.encode(new TtrpcFrame(5, TtrpcFrameType.REQUEST, 0, echo)));
        frames.write(TtrpcFrames.encode(new TtrpcFrame(5, TtrpcFrameType.REQUEST, 0, echo)));
        frames.write(TtrpcFrames.encode(new TtrpcFrame(7, TtrpcFrameType.DATA, 0, new byte[0])));
        frames.write(TtrpcFrames.encode(new TtrpcFrame(9, TtrpcFrameType.REQUEST, 0, new byte[] {(byte) 0xFF})));
        plain.serve(new ByteArrayInputStream(frames.toByteArray()), out::add);

        Map<String, String> byStreamAndCode = new java.util.TreeMap<>();
        for (int i = 0; i < 5; i++) {
            byte[] bytes = out.poll(5, TimeUnit.SECONDS);
            assertThat(bytes).as("answer " + i).isNotNull();
            TtrpcFrame frame = TtrpcFrames.read(new ByteArrayInputStream(bytes)).orElseThrow();
            Response response = Response.parseFrom(frame.payload());
            byStreamAndCode.merge(
                    String.valueOf(frame.streamId()),
                    StatusCode.of(response.getStatus().getCode()) + ":"
                            + response.getStatus().getMessage(),
                    (a, b) -> a + " | " + b);
        }
        assertThat(byStreamAndCode.get("2")).startsWith("INVALID_ARGUMENT:stream id 2 must be odd");
        assertThat(byStreamAndCode.get("5")).contains("OK:").contains("INVALID_ARGUMENT:stream id 5 must increase");
        assertThat(byStreamAndCode.get("7")).startsWith("INVALID_ARGUMENT:stream 7 is not active");
        assertThat(byStreamAndCode.get("9")).startsWith("INVALID_ARGUMENT:undecodable ttrpc request");
    }

    @Test
    void aResponseSentToTheServerIsAProtocolError() {
        TtrpcServer plain = new TtrpcServer("raw", Map.of(), RequestObserver.NONE);
        byte[] response = TtrpcFrames.encode(new TtrpcFrame(1, TtrpcFrameType.RESPONSE, 0, new byte[0]));

        assertThatThrownBy(() -> plain.serve(new ByteArrayInputStream(response), f -> {}))
                .isInstanceOf(TtrpcProtocolException.class)
                .hasMessageContaining("response frame on stream 1");
    }
}
