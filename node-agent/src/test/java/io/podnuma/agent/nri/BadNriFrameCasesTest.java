package io.podnuma.agent.nri;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.podnuma.agent.nri.ttrpc.StatusCode;
import io.podnuma.agent.nri.ttrpc.TtrpcFrame;
import io.podnuma.agent.nri.ttrpc.TtrpcFrameType;
import io.podnuma.agent.nri.ttrpc.TtrpcFrames;
import io.podnuma.agent.nri.ttrpc.TtrpcServer;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.StopContainerRequest;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import io.podnuma.ttrpc.Request;
import io.podnuma.ttrpc.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's NRI frames, as the runtime's side of the connection would send them to the agent's plugin (its
 * ttrpc server with the plugin's real handlers). A bad request is answered on its own stream and the plugin handles
 * the next request; a frame that breaks the framing itself ends the connection (the runtime reconnects and the
 * plugin registers again), before any handler is called.
 */
class BadNriFrameCasesTest {

    private static final InputKind KIND = InputKind.NRI_FRAME;
    private static final String NEXT_SERVED =
            "the plugin answers the next request (StopContainer on stream 101) and" + " calls its handler once for it";
    private static final String CLOSED = "the connection ends before any handler is called; the runtime reconnects"
            + " and the plugin registers again";
    private static final Map<String, byte[]> FRAMES = new HashMap<>();

    static List<BadInput> cases() {
        return List.of(
                framing(
                        "nri-header-truncated",
                        "a header cut after 3 bytes",
                        hex("000000"),
                        "connection closed: the stream ended inside a ttrpc header (3 of 10 bytes)"),
                framing(
                        "nri-payload-truncated",
                        "a payload shorter than its header says",
                        hex("00000005" + "00000001" + "0100" + "0102"),
                        "connection closed: the stream ended inside a ttrpc frame (2 of 5 data bytes)"),
                framing(
                        "nri-oversized",
                        "a frame over 4 MiB",
                        hex("00400001" + "00000001" + "0100"),
                        "connection closed: ttrpc frame of 4194305 bytes on stream 1 is over the 4194304-byte limit"),
                framing(
                        "nri-unknown-type",
                        "an unknown frame type",
                        hex("00000000" + "00000001" + "0900"),
                        "connection closed: ttrpc frame of unknown type 0x09 on stream 1"),
                framing(
                        "nri-type-zero",
                        "frame type 0",
                        hex("00000000" + "00000001" + "0000"),
                        "connection closed: ttrpc frame of unknown type 0x00 on stream 1"),
                framing(
                        "nri-response-to-plugin",
                        "a response sent to the plugin",
                        frame(1, TtrpcFrameType.RESPONSE, new byte[0]),
                        "connection closed: ttrpc server nri got a response frame on stream 1"),
                stream(
                        "nri-even-stream",
                        "an even stream id (the runtime's are odd)",
                        frame(2, TtrpcFrameType.REQUEST, request("Shutdown", new byte[0])),
                        "stream 2: INVALID_ARGUMENT: stream id 2 must be odd for client-initiated streams",
                        "stream 101: OK"),
                stream(
                        "nri-repeated-stream",
                        "a stream id used twice",
                        concat(
                                frame(5, TtrpcFrameType.REQUEST, request("Shutdown", new byte[0])),
                                frame(5, TtrpcFrameType.REQUEST, request("Shutdown", new byte[0]))),
                        "stream 5: INVALID_ARGUMENT: stream id 5 must increase (last was 5)",
                        "stream 5: OK",
                        "stream 101: OK"),
                stream(
                        "nri-data-inactive",
                        "data on a stream that is not open",
                        frame(7, TtrpcFrameType.DATA, new byte[0]),
                        "stream 7: INVALID_ARGUMENT: stream 7 is not active (only unary calls are served)",
                        "stream 101: OK"),
                stream(
                        "nri-undecodable-envelope",
                        "a request that is no ttrpc envelope",
                        frame(9, TtrpcFrameType.REQUEST, new byte[] {(byte) 0xff}),
                        "stream 9: INVALID_ARGUMENT: undecodable ttrpc request: While parsing a protocol message, the input ended unexpectedly in the middle of a field.  This could mean either that the input has been truncated or that an embedded message misreported its own length.",
                        "stream 101: OK"),
                stream(
                        "nri-unknown-method",
                        "a Plugin method the agent does not have",
                        frame(11, TtrpcFrameType.REQUEST, request("Bogus", new byte[0])),
                        "stream 11: UNIMPLEMENTED: nri.pkg.api.v1alpha1.Plugin/Bogus is not implemented",
                        "stream 101: OK"),
                stream(
                        "nri-unknown-service",
                        "a service the plugin does not serve",
                        frame(
                                13,
                                TtrpcFrameType.REQUEST,
                                Request.newBuilder()
                                        .setService("nri.pkg.api.v2.Plugin")
                                        .setMethod("Configure")
                                        .build()
                                        .toByteArray()),
                        "stream 13: UNIMPLEMENTED: nri.pkg.api.v2.Plugin/Configure is not implemented",
                        "stream 101: OK"),
                stream(
                        "nri-empty-method",
                        "a request naming no service or method",
                        frame(15, TtrpcFrameType.REQUEST, new byte[0]),
                        "stream 15: UNIMPLEMENTED: / is not implemented",
                        "stream 101: OK"),
                stream(
                        "nri-undecodable-payload",
                        "a CreateContainer payload that is no protobuf",
                        frame(17, TtrpcFrameType.REQUEST, request("CreateContainer", new byte[] {(byte) 0xff, 0x01})),
                        "stream 17: INVALID_ARGUMENT: undecodable CreateContainer request: Protocol message tag had invalid wire type.",
                        "stream 101: OK"),
                stream(
                        "nri-stop-without-container",
                        "a StopContainer naming no container",
                        frame(19, TtrpcFrameType.REQUEST, request("StopContainer", new byte[0])),
                        "stream 19: INVALID_ARGUMENT: StopContainer request has no pod.id and no container.id: allowed a request naming the pod sandbox and the container by id",
                        "stream 101: OK"));
    }

    private static BadInput framing(String id, String wrong, byte[] frames, String... answer) {
        FRAMES.put(id, frames);
        return new BadInput(id, KIND, wrong, HexFormat.of().formatHex(frames), List.of(answer), CLOSED);
    }

    private static BadInput stream(String id, String wrong, byte[] frames, String... answer) {
        FRAMES.put(id, concat(frames, frame(101, TtrpcFrameType.REQUEST, request("StopContainer", stop()))));
        return new BadInput(id, KIND, wrong, HexFormat.of().formatHex(frames), List.of(answer), NEXT_SERVED);
    }

    private static byte[] stop() {
        return StopContainerRequest.newBuilder()
                .setPod(PodSandbox.newBuilder().setId("p1").setName("web").setNamespace("shop"))
                .setContainer(
                        Container.newBuilder().setId("c1").setPodSandboxId("p1").setName("app"))
                .build()
                .toByteArray();
    }

    private static byte[] request(String method, byte[] payload) {
        return Request.newBuilder()
                .setService(NriMethods.PLUGIN)
                .setMethod(method)
                .setPayload(ByteString.copyFrom(payload))
                .build()
                .toByteArray();
    }

    private static byte[] frame(long stream, TtrpcFrameType type, byte[] payload) {
        return TtrpcFrames.encode(new TtrpcFrame(stream, type, 0, payload));
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void thePluginAnswersExactly(BadInput c) throws Exception {
        RecordingHandler handler = new RecordingHandler();
        PluginService service = new PluginService(handler, new PluginService.Progress() {
            @Override
            public void configured(RuntimeInfo runtime, EventMask events) {}

            @Override
            public void synced() {}
        });
        TtrpcServer server = new TtrpcServer("nri", service.handlers(), (m, code, nanos) -> {});
        LinkedBlockingQueue<byte[]> out = new LinkedBlockingQueue<>();
        List<String> answer = new ArrayList<>();
        try {
            server.serve(new ByteArrayInputStream(FRAMES.get(c.id())), out::add);
        } catch (IOException e) {
            answer.add("connection closed: " + e.getMessage());
        }
        // Handlers answer on threads of their own: wait for one answer per request frame sent.
        int requests = c.kept().equals(NEXT_SERVED) ? expectedAnswers(FRAMES.get(c.id())) : 0;
        List<String> responses = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            byte[] bytes = out.poll(10, TimeUnit.SECONDS);
            assertThat(bytes).as("answer %d of %d", i + 1, requests).isNotNull();
            TtrpcFrame f = TtrpcFrames.read(new ByteArrayInputStream(bytes)).orElseThrow();
            Response r = Response.parseFrom(f.payload());
            responses.add("stream " + f.streamId() + ": "
                    + StatusCode.of(r.getStatus().getCode())
                    + (r.getStatus().getMessage().isEmpty()
                            ? ""
                            : ": " + r.getStatus().getMessage()));
        }
        // Handlers answer on threads of their own: in stream order, two answers of one stream by their text.
        responses.sort(java.util.Comparator.<String>comparingLong(s -> Long.parseLong(s.split("[ :]")[1]))
                .thenComparing(java.util.Comparator.naturalOrder()));
        answer.addAll(responses);

        c.assertAnswer(answer);
        if (c.kept().equals(NEXT_SERVED)) {
            assertThat(handler.stopped).extracting(Container::getId).containsExactly("c1");
        } else {
            assertThat(handler.stopped).isEmpty();
            assertThat(out).isEmpty();
        }
        assertThat(handler.created).isEmpty();
        assertThat(handler.updated).isEmpty();
    }

    /** One answer per request frame and per data frame (refused on its stream). */
    private static int expectedAnswers(byte[] frames) throws IOException {
        var in = new ByteArrayInputStream(frames);
        int n = 0;
        while (true) {
            var f = TtrpcFrames.read(in);
            if (f.isEmpty()) {
                return n;
            }
            n++;
        }
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
