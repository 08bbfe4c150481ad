package io.podnuma.agent.podresources;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.function.BiConsumer;

/**
 * Counts every PodResources call by method and status code once it ends, including the ones the rate limit refused
 * (it sits outside the limiter).
 */
final class RequestCounter implements ServerInterceptor {

    private final BiConsumer<String, String> counter;

    /** @param counter takes the bare method name ({@code List}) and the status code name ({@code OK}) */
    RequestCounter(BiConsumer<String, String> counter) {
        this.counter = counter;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getBareMethodName();
        return next.startCall(
                new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                    @Override
                    public void close(Status status, Metadata trailers) {
                        counter.accept(method, status.getCode().name());
                        super.close(status, trailers);
                    }
                },
                headers);
    }
}
