package io.podnuma.agent.podresources;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import java.io.InputStream;

/**
 * Answers a request that is not the method's protobuf message with {@code INTERNAL} and what the parser found, as
 * the kubelet's gRPC server does ("error unmarshalling request"). gRPC-Java parses a request before any interceptor
 * sees it and ends a failed parse as {@code UNKNOWN: Application error processing RPC}, which tells the client
 * nothing; {@link #wrap} moves the parse into the listener chain (the messages travel as streams, not copied), where
 * this interceptor sees the failure and closes the call itself.
 */
final class MalformedRequests implements ServerInterceptor {

    private static final MethodDescriptor.Marshaller<InputStream> STREAMS = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(InputStream value) {
            return value;
        }

        @Override
        public InputStream parse(InputStream stream) {
            return stream;
        }
    };

    /** The service with its requests parsed behind the interceptors, then this interceptor next to the service. */
    static ServerServiceDefinition wrap(ServerServiceDefinition service) {
        return ServerInterceptors.intercept(
                ServerInterceptors.useMarshalledMessages(service, STREAMS, STREAMS), new MalformedRequests());
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        String type = call.getMethodDescriptor().getFullMethodName();
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private boolean closed;

            @Override
            public void onMessage(Q message) {
                if (closed) {
                    return;
                }
                try {
                    super.onMessage(message);
                } catch (RuntimeException e) {
                    closed = true;
                    call.close(
                            Status.INTERNAL.withDescription("cannot parse the request of " + type
                                    + " as its protobuf message: " + rootMessage(e)),
                            new Metadata());
                }
            }

            @Override
            public void onHalfClose() {
                if (!closed) {
                    super.onHalfClose();
                }
            }

            @Override
            public void onReady() {
                if (!closed) {
                    super.onReady();
                }
            }
        };
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
