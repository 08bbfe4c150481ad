package io.podnuma.agent.nri.ttrpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.podnuma.ttrpc.Request;
import io.podnuma.ttrpc.Response;
import io.podnuma.ttrpc.Status;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A unary ttrpc server for one connection. {@link #serve} reads frames on the caller's thread; each request runs on
 * a virtual thread of its own, so a slow handler never holds up the reading (the NRI runtime may call Configure while
 * our own RegisterPlugin call is outstanding). Unknown methods answer UNIMPLEMENTED (NRI's fallback signal), a handler
 * exception UNKNOWN with its message (or the {@link TtrpcException}'s code), an overrun of the request's
 * {@code timeout_nano} DEADLINE_EXCEEDED, with the handler interrupted.
 *
 * <p>Like Go's server, a bad request that still has a stream id (an even or non-increasing id, an undecodable
 * envelope, streaming data) is answered INVALID_ARGUMENT on that id and reading goes on; a frame that breaks the
 * framing (over 4 MiB, unknown type) or a response sent to a server throws {@link TtrpcProtocolException}, as the
 * stream cannot be trusted after it.
 */
public final class TtrpcServer {

    private static final Logger LOG = LoggerFactory.getLogger(TtrpcServer.class);

    private final String name;
    private final Map<ServiceMethod, UnaryHandler> handlers;
    private final RequestObserver observer;

    public TtrpcServer(String name, Map<ServiceMethod, UnaryHandler> handlers, RequestObserver observer) {
        this.name = Objects.requireNonNull(name, "name");
        this.handlers = Map.copyOf(handlers);
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /** Serves requests read from {@code in}, answering on {@code out}, until the stream ends. */
    public void serve(InputStream in, FrameSink out) throws IOException {
        long lastStreamId = 0;
        while (true) {
            Optional<TtrpcFrame> next = TtrpcFrames.read(in);
            if (next.isEmpty()) {
                return;
            }
            TtrpcFrame frame = next.get();
            long id = frame.streamId();
            switch (frame.type()) {
                case RESPONSE ->
                    throw new TtrpcProtocolException("ttrpc server " + name + " got a response frame on stream " + id);
                case DATA -> reject(out, id, "stream " + id + " is not active (only unary calls are served)");
                case REQUEST -> {
                    if (id % 2 != 1) {
                        reject(out, id, "stream id " + id + " must be odd for client-initiated streams");
                    } else if (id <= lastStreamId) {
                        reject(out, id, "stream id " + id + " must increase (last was " + lastStreamId + ")");
                    } else {
                        lastStreamId = id;
                        dispatch(out, id, frame.payload());
                    }
                }
            }
        }
    }

    private void dispatch(FrameSink out, long id, byte[] envelope) {
        Request request;
        try {
            request = Request.parseFrom(envelope);
        } catch (InvalidProtocolBufferException e) {
            reject(out, id, "undecodable ttrpc request: " + e.getMessage());
            return;
        }
        ServiceMethod method = new ServiceMethod(request.getService(), request.getMethod());
        long start = System.nanoTime();
        UnaryHandler handler = handlers.get(method);
        if (handler == null) {
            LOG.debug("ttrpc server {}: {} is not implemented", name, method);
            answer(out, id, method, start, error(StatusCode.UNIMPLEMENTED, method + " is not implemented"), null);
            return;
        }
        Thread.ofVirtual()
                .name(name + "-" + request.getMethod() + "-" + id)
                .start(() -> run(out, id, method, start, handler, request));
    }

    private void run(FrameSink out, long id, ServiceMethod method, long start, UnaryHandler handler, Request request) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        byte[] payload = request.getPayload().toByteArray();
        Thread worker = Thread.ofVirtual().name(name + "-handler-" + id).start(() -> {
            try {
                result.complete(handler.handle(payload));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            byte[] response = request.getTimeoutNano() > 0
                    ? result.get(request.getTimeoutNano(), TimeUnit.NANOSECONDS)
                    : result.get();
            answer(out, id, method, start, null, response);
        } catch (TimeoutException e) {
            worker.interrupt();
            LOG.warn(
                    "ttrpc server {}: {} overran the caller's {} ms deadline; answered DEADLINE_EXCEEDED",
                    name,
                    method,
                    TimeUnit.NANOSECONDS.toMillis(request.getTimeoutNano()));
            answer(out, id, method, start, error(StatusCode.DEADLINE_EXCEEDED, method + " overran its deadline"), null);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            Status status = cause instanceof TtrpcException t
                    ? error(t.code(), t.statusMessage())
                    : error(StatusCode.UNKNOWN, String.valueOf(cause.getMessage()));
            LOG.warn("ttrpc server {}: {} failed: {}", name, method, cause.toString());
            answer(out, id, method, start, status, null);
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
        }
    }

    private void reject(FrameSink out, long id, String problem) {
        LOG.warn("ttrpc server {}: refusing a request: {}", name, problem);
        send(
                out,
                id,
                Response.newBuilder()
                        .setStatus(error(StatusCode.INVALID_ARGUMENT, problem))
                        .build());
    }

    private void answer(FrameSink out, long id, ServiceMethod method, long start, Status status, byte[] payload) {
        Response.Builder response = Response.newBuilder();
        if (status != null) {
            response.setStatus(status);
        } else {
            response.setPayload(ByteString.copyFrom(payload));
        }
        send(out, id, response.build());
        observer.answered(
                method, status == null ? StatusCode.OK : StatusCode.of(status.getCode()), System.nanoTime() - start);
    }

    private void send(FrameSink out, long id, Response response) {
        byte[] bytes = response.toByteArray();
        if (bytes.length > TtrpcFrames.MAX_DATA) {
            LOG.warn(
                    "ttrpc server {}: the answer on stream {} is {} bytes, over the ttrpc limit",
                    name,
                    id,
                    bytes.length);
            bytes = Response.newBuilder()
                    .setStatus(error(
                            StatusCode.RESOURCE_EXHAUSTED,
                            "response of " + bytes.length + " bytes exceeds the 4 MiB limit"))
                    .build()
                    .toByteArray();
        }
        try {
            out.send(TtrpcFrames.encode(new TtrpcFrame(id, TtrpcFrameType.RESPONSE, 0, bytes)));
        } catch (IOException e) {
            LOG.debug("ttrpc server {}: could not answer stream {}: {}", name, id, e.toString());
        }
    }

    private static Status error(StatusCode code, String message) {
        return Status.newBuilder().setCode(code.code()).setMessage(message).build();
    }
}
