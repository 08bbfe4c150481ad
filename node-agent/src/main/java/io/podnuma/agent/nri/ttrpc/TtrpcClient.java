package io.podnuma.agent.nri.ttrpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.podnuma.ttrpc.Request;
import io.podnuma.ttrpc.Response;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A unary ttrpc client for one connection. Calls take stream ids 1, 3, 5, ... and go on the wire in that order (the
 * id is taken and the frame sent under one lock: a Go server refuses an id that does not increase). Each call is a
 * future that completes with the response message's bytes or fails with a {@link TtrpcException}: the peer's status,
 * DEADLINE_EXCEEDED when the timeout passes first (its remaining time is sent as {@code timeout_nano}), UNAVAILABLE
 * when the connection ends. {@link #receive} reads the answers on the caller's thread.
 */
public final class TtrpcClient {

    private static final Logger LOG = LoggerFactory.getLogger(TtrpcClient.class);

    private final String name;
    private final FrameSink out;
    private final ReentrantLock sendLock = new ReentrantLock();
    private final Map<Long, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
    private long nextStreamId = 1;
    private volatile String closedReason;

    public TtrpcClient(String name, FrameSink out) {
        this.name = Objects.requireNonNull(name, "name");
        this.out = Objects.requireNonNull(out, "out");
    }

    public CompletableFuture<byte[]> call(ServiceMethod method, byte[] request, Duration timeout) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout " + timeout + " must be positive");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        sendLock.lock();
        try {
            if (closedReason != null) {
                result.completeExceptionally(new TtrpcException(StatusCode.UNAVAILABLE, closedReason));
                return result;
            }
            long id = nextStreamId;
            if (id > 0xFFFF_FFFFL) {
                result.completeExceptionally(new TtrpcException(StatusCode.RESOURCE_EXHAUSTED, "stream ids exhausted"));
                return result;
            }
            nextStreamId += 2;
            byte[] envelope = Request.newBuilder()
                    .setService(method.service())
                    .setMethod(method.method())
                    .setPayload(ByteString.copyFrom(request))
                    .setTimeoutNano(Math.max(1, deadline - System.nanoTime()))
                    .build()
                    .toByteArray();
            if (envelope.length > TtrpcFrames.MAX_DATA) {
                result.completeExceptionally(new TtrpcException(
                        StatusCode.RESOURCE_EXHAUSTED,
                        method + " request of " + envelope.length + " bytes exceeds the 4 MiB ttrpc limit"));
                return result;
            }
            pending.put(id, result);
            result.whenComplete((r, e) -> pending.remove(id, result));
            CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .execute(() -> result.completeExceptionally(new TtrpcException(
                            StatusCode.DEADLINE_EXCEEDED,
                            method + " got no answer within " + timeout.toMillis() + " ms")));
            try {
                out.send(TtrpcFrames.encode(new TtrpcFrame(id, TtrpcFrameType.REQUEST, 0, envelope)));
            } catch (IOException e) {
                result.completeExceptionally(
                        new TtrpcException(StatusCode.UNAVAILABLE, "send failed: " + e.getMessage()));
            }
        } finally {
            sendLock.unlock();
        }
        return result;
    }

    /**
     * Reads answers until the stream ends or breaks, then fails every pending call; a frame that breaks the framing
     * or a request sent to a client throws {@link TtrpcProtocolException}.
     */
    public void receive(InputStream in) throws IOException {
        try {
            while (true) {
                Optional<TtrpcFrame> next = TtrpcFrames.read(in);
                if (next.isEmpty()) {
                    close("the connection ended");
                    return;
                }
                TtrpcFrame frame = next.get();
                if (frame.type() != TtrpcFrameType.RESPONSE) {
                    throw new TtrpcProtocolException(
                            "ttrpc client " + name + " got a " + frame.type() + " frame on stream " + frame.streamId());
                }
                CompletableFuture<byte[]> call = pending.get(frame.streamId());
                if (call == null) {
                    LOG.warn(
                            "ttrpc client {}: answer on stream {}, which has no call waiting (late or unknown)",
                            name,
                            frame.streamId());
                    continue;
                }
                complete(call, frame);
            }
        } catch (IOException | RuntimeException e) {
            close("reading answers failed: " + e.getMessage());
            throw e;
        }
    }

    /** Fails every pending and future call with UNAVAILABLE and the reason. */
    public void close(String reason) {
        sendLock.lock();
        try {
            if (closedReason == null) {
                closedReason = reason;
            }
        } finally {
            sendLock.unlock();
        }
        List<CompletableFuture<byte[]>> calls = new ArrayList<>(pending.values());
        calls.forEach(c -> c.completeExceptionally(new TtrpcException(StatusCode.UNAVAILABLE, reason)));
    }

    private static void complete(CompletableFuture<byte[]> call, TtrpcFrame frame) {
        Response response;
        try {
            response = Response.parseFrom(frame.payload());
        } catch (InvalidProtocolBufferException e) {
            call.completeExceptionally(
                    new TtrpcException(StatusCode.INTERNAL, "undecodable ttrpc response: " + e.getMessage()));
            return;
        }
        if (response.hasStatus() && response.getStatus().getCode() != 0) {
            call.completeExceptionally(new TtrpcException(
                    StatusCode.of(response.getStatus().getCode()),
                    response.getStatus().getMessage()));
        } else {
            call.complete(response.getPayload().toByteArray());
        }
    }
}
