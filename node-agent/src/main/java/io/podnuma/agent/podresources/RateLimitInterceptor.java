package io.podnuma.agent.podresources;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.podnuma.ratelimit.TokenBucket;
import java.util.Objects;

/**
 * Refuses calls over the rate limit before they reach the service, as the kubelet does for PodResources:
 * {@code RESOURCE_EXHAUSTED} with the kubelet's message, so existing clients' retry logic applies unchanged.
 */
public final class RateLimitInterceptor implements ServerInterceptor {

    /** The kubelet's values (k8s.io/kubernetes pkg/kubelet/apis/podresources, DefaultQPS, DefaultBurstTokens). */
    public static final double DEFAULT_QPS = 100;

    public static final int DEFAULT_BURST = 10;

    /** The kubelet's status message for a refused call (pkg/kubelet/apis/grpc, ErrorLimitExceeded). */
    public static final String REJECTED_MESSAGE = "rejected by rate limit";

    private final TokenBucket bucket;

    public RateLimitInterceptor(TokenBucket bucket) {
        this.bucket = Objects.requireNonNull(bucket, "bucket");
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        if (bucket.tryTake()) {
            return next.startCall(call, headers);
        }
        call.close(Status.RESOURCE_EXHAUSTED.withDescription(REJECTED_MESSAGE), new Metadata());
        return new ServerCall.Listener<>() {};
    }
}
