package io.podnuma.agent.nri.ttrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.podnuma.ttrpc.Request;
import io.podnuma.ttrpc.Response;
import io.podnuma.ttrpc.Status;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TtrpcClientTest {

    private static final ServiceMethod METHOD = new ServiceMethod("test.Service", "Echo");

    private final List<byte[]> sent = new CopyOnWriteArrayList<>();
    private final TtrpcClient client = new TtrpcClient("test", sent::add);

    @Test
    void callsTakeOddIncreasingStreamIdsAndSendTheirDeadline() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        for (int i = 0; i < 3; i++) {
            client.call(METHOD, new byte[] {(byte) i}, timeout);
        }

        List<TtrpcFrame> frames = sent.stream().map(TtrpcClientTest::decode).toList();
        assertThat(frames).extracting(TtrpcFrame::streamId).containsExactly(1L, 3L, 5L);
        assertThat(frames).extracting(TtrpcFrame::type).containsOnly(TtrpcFrameType.REQUEST);
        for (int i = 0; i < 3; i++) {
            Request request = Request.parseFrom(frames.get(i).payload());
            assertThat(request.getService()).isEqualTo("test.Service");
            assertThat(request.getMethod()).isEqualTo("Echo");
            assertThat(request.getPayload().toByteArray()).containsExactly(i);
            assertThat(request.getTimeoutNano()).isPositive().isLessThanOrEqualTo(timeout.toNanos());
        }
    }

    @Test
    void answersCompleteTheirCallsAndTheEndOfTheStreamFailsTheRest() throws Exception {
        var first = client.call(METHOD, new byte[0], Duration.ofSeconds(5));
        var second = client.call(METHOD, new byte[0], Duration.ofSeconds(5));
        var third = client.call(METHOD, new byte[0], Duration.ofSeconds(5));
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        answers.write(response(3, Response.newBuilder().setPayload(ByteString.copyFromUtf8("three"))));
        answers.write(response(
                1,
                Response.newBuilder().setStatus(Status.newBuilder().setCode(12).setMessage("no such method"))));
        answers.write(response(99, Response.newBuilder())); // no call waits on 99: logged, skipped

        client.receive(new ByteArrayInputStream(answers.toByteArray()));

        assertThat(second.get(1, TimeUnit.SECONDS)).asString().isEqualTo("three");
        assertThat(failure(first).code()).isEqualTo(StatusCode.UNIMPLEMENTED);
        assertThat(failure(first).statusMessage()).isEqualTo("no such method");
        assertThat(failure(third).code()).isEqualTo(StatusCode.UNAVAILABLE);
        assertThat(failure(client.call(METHOD, new byte[0], Duration.ofSeconds(1)))
                        .code())
                .as("calls after the end fail at once")
                .isEqualTo(StatusCode.UNAVAILABLE);
    }

    @Test
    void aCallWithoutAnswerFailsWithDeadlineExceeded() {
        var call = client.call(METHOD, new byte[0], Duration.ofMillis(20));

        assertThat(failure(call).code()).isEqualTo(StatusCode.DEADLINE_EXCEEDED);
    }

    @Test
    void aRequestFrameSentToTheClientIsAProtocolError() {
        byte[] request = TtrpcFrames.encode(new TtrpcFrame(1, TtrpcFrameType.REQUEST, 0, new byte[0]));
        var pendingCall = client.call(METHOD, new byte[0], Duration.ofSeconds(5));

        assertThatThrownBy(() -> client.receive(new ByteArrayInputStream(request)))
                .isInstanceOf(TtrpcProtocolException.class);
        assertThat(failure(pendingCall).code()).isEqualTo(StatusCode.UNAVAILABLE);
    }

    static TtrpcException failure(CompletableFuture<byte[]> call) {
        try {
            call.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return (TtrpcException) e.getCause();
        } catch (Exception e) {
            throw new AssertionError("the call neither failed nor completed in time", e);
        }
        throw new AssertionError("the call succeeded");
    }

    private static byte[] response(long id, Response.Builder response) {
        return TtrpcFrames.encode(
                new TtrpcFrame(id, TtrpcFrameType.RESPONSE, 0, response.build().toByteArray()));
    }

    private static TtrpcFrame decode(byte[] bytes) {
        try {
            return TtrpcFrames.read(new ByteArrayInputStream(bytes)).orElseThrow();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
