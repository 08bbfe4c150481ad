package io.podnuma.agent.podresources;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * A response marshaller that keeps the bytes of the last message it wrote: when the service answers with the same
 * message instance again (a {@link PreparedAnswers} message, until the next snapshot), the call sends those bytes
 * instead of serializing again. Serializing a {@code List} answer encodes every pod, namespace and container name
 * to UTF-8 anew: 40% of what a call allocated once the answer itself was kept. The bytes are the wrapped
 * marshaller's own, so the wire is unchanged; a message built per call (kubelet devices) is serialized per call,
 * as before. Parsing (client side, unused here) is the wrapped marshaller's.
 */
final class SerializedOnce<T> implements MethodDescriptor.Marshaller<T> {

    private record Serialized<T>(T message, byte[] bytes) {}

    private final MethodDescriptor.Marshaller<T> wrapped;
    private volatile Serialized<T> last;

    SerializedOnce(MethodDescriptor.Marshaller<T> wrapped) {
        this.wrapped = Objects.requireNonNull(wrapped, "wrapped");
    }

    @Override
    public InputStream stream(T message) {
        Serialized<T> s = last;
        if (s == null || s.message() != message) {
            s = new Serialized<>(message, bytesOf(message));
            last = s;
        }
        return new Bytes(s.bytes());
    }

    @Override
    public T parse(InputStream stream) {
        return wrapped.parse(stream);
    }

    private byte[] bytesOf(T message) {
        try (InputStream in = wrapped.stream(message)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("serializing " + message.getClass().getSimpleName() + " in memory", e);
        }
    }

    /** The kept bytes as gRPC's framer takes them best: length known up front, drained in one write. */
    private static final class Bytes extends ByteArrayInputStream implements KnownLength, Drainable {

        Bytes(byte[] bytes) {
            super(bytes);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = available();
            target.write(buf, pos, n);
            pos = count;
            return n;
        }
    }
}
