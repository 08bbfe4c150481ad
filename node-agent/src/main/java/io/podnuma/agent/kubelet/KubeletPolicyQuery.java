package io.podnuma.agent.kubelet;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the running kubelet, on its PodResources socket, which CPU and memory manager policies it has
 * ({@link KubeletCoexistence#allocatable}). The kubelet's state files would say the same but cannot be followed
 * through a single-file mount (the kubelet replaces them by a rename), and mounting the kubelet's root directory
 * would hand the agent the node's client key and every pod's volumes.
 *
 * <p>The reconcile tick asks on the engine's thread, so a hung kubelet must not hold it: the first question waits for
 * its answer (up to the call timeout), later ones wait at most {@code grace} and otherwise return the last answer
 * while the call goes on; a call that runs out of time gives an {@link FileVerdict#UNREADABLE} verdict then. A failed
 * call closes the channel, so the next tick dials afresh rather than waiting out gRPC's reconnect backoff (up to two
 * minutes) after a kubelet restart.
 */
public final class KubeletPolicyQuery implements AutoCloseable {

    /** How long a tick waits for a call in flight before it goes on with the last answer. */
    static final Duration DEFAULT_GRACE = Duration.ofMillis(250);

    private final Path socket;
    private final Duration timeout;
    private final Duration grace;
    private ManagedChannel channel;
    private CompletableFuture<AllocatableResourcesResponse> inFlight;
    private FileCheck last;

    public KubeletPolicyQuery(Path socket, Duration timeout) {
        this(socket, timeout, DEFAULT_GRACE);
    }

    KubeletPolicyQuery(Path socket, Duration timeout, Duration grace) {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.grace = Objects.requireNonNull(grace, "grace");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "kubelet PodResources timeout " + timeout + " must be positive, e.g. PT1S");
        }
    }

    public Path socket() {
        return socket;
    }

    /** The kubelet's answer now, or (while a slow call goes on) its last one. */
    public synchronized FileCheck check() {
        if (!Files.exists(socket)) {
            reset();
            last = null;
            return KubeletCoexistence.noSocket(socket);
        }
        if (inFlight == null) {
            inFlight = ask();
        }
        // The first answer decides whether the agent may write at all: wait for it (the deadline ends the call).
        Duration wait = last == null ? timeout.plusSeconds(1) : grace;
        try {
            AllocatableResourcesResponse answer = inFlight.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            inFlight = null;
            last = KubeletCoexistence.allocatable(socket, answer);
        } catch (TimeoutException e) {
            if (last == null) {
                return KubeletCoexistence.unanswered(socket, Status.DEADLINE_EXCEEDED, timeout);
            }
        } catch (ExecutionException e) {
            reset();
            last = KubeletCoexistence.unanswered(socket, Status.fromThrowable(e.getCause()), timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last != null ? last : KubeletCoexistence.unanswered(socket, Status.CANCELLED, timeout);
        }
        return last;
    }

    private CompletableFuture<AllocatableResourcesResponse> ask() {
        CompletableFuture<AllocatableResourcesResponse> answer = new CompletableFuture<>();
        PodResourcesListerGrpc.newStub(channel())
                .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(AllocatableResourcesResponse value) {
                        answer.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        answer.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        answer.completeExceptionally(Status.INTERNAL
                                .withDescription("the call ended without an answer")
                                .asRuntimeException());
                    }
                });
        return answer;
    }

    private ManagedChannel channel() {
        if (channel == null) {
            channel = DomainSocketChannels.open(socket);
        }
        return channel;
    }

    /** Forgets the call in flight and the channel (a kubelet that comes back is dialled anew). */
    private void reset() {
        if (inFlight != null) {
            inFlight.cancel(true);
            inFlight = null;
        }
        if (channel != null) {
            channel.shutdownNow();
            channel = null;
        }
    }

    @Override
    public synchronized void close() {
        ManagedChannel open = channel;
        reset();
        if (open != null) {
            try {
                open.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
