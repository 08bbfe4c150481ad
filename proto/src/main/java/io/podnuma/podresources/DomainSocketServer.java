package io.podnuma.podresources;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plaintext gRPC server on a unix domain socket, as the kubelet serves PodResources. It owns its
 * epoll event loop (one thread accepts and serves: a local socket has a handful of clients) and its socket
 * file; {@link #close()} releases both. It holds at most {@link ConnectionLimits#maxConnections()} connections and
 * closes those that stay silent or idle ({@link ConnectionLimits}): the cap cannot tell a flood from a client, so a
 * client refused during a flood gets in once the flood's silent connections time out (gRPC clients retry with
 * backoff).
 */
public final class DomainSocketServer implements AutoCloseable {

    private static final long SHUTDOWN_GRACE_SECONDS = 5;

    /**
     * The largest request a client may send. PodResources requests carry a pod's namespace and name at most (a few
     * hundred bytes); gRPC's default of 4 MiB would let any local client make the agent buffer megabytes per call.
     * A larger request is refused with RESOURCE_EXHAUSTED before it is parsed.
     */
    public static final int MAX_REQUEST_BYTES = 64 * 1024;

    /** Netty's property for its buffer leak detector, as the shaded copy in grpc-netty-shaded reads it. */
    static final String LEAK_DETECTION_PROPERTY = "io.grpc.netty.shaded.io.netty.leakDetection.level";

    private final Path socket;
    private final Server server;
    private final EventLoopGroup loop;

    private DomainSocketServer(Path socket, Server server, EventLoopGroup loop) {
        this.socket = socket;
        this.server = server;
        this.loop = loop;
    }

    /**
     * Binds {@code socket} (replacing a stale socket file) and starts serving {@code services}: a
     * service's {@code bindService()}, or its definition wrapped by {@code ServerInterceptors}.
     *
     * @throws IllegalStateException if the epoll transport cannot load (not Linux, or no native library)
     */
    public static DomainSocketServer start(Path socket, List<ServerServiceDefinition> services) throws IOException {
        return start(socket, services, HandlerThreads.EXECUTOR);
    }

    /**
     * As {@link #start(Path, List)}, with the handlers on the given threads: {@link HandlerThreads#EVENT_LOOP}
     * saves two thread hand-offs per call (event loop → executor → event loop), each a wake-up that on a busy
     * node waits for a core.
     */
    public static DomainSocketServer start(Path socket, List<ServerServiceDefinition> services, HandlerThreads threads)
            throws IOException {
        return start(socket, services, threads, ConnectionLimits.DEFAULT);
    }

    /** As {@link #start(Path, List, HandlerThreads)}, with the connection cap and timeouts given. */
    public static DomainSocketServer start(
            Path socket, List<ServerServiceDefinition> services, HandlerThreads threads, ConnectionLimits limits)
            throws IOException {
        requireEpoll();
        noLeakTracesUnlessAsked();
        DomainSocketPaths.prepareForBind(socket);
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        Server server;
        try {
            ConnectionCap cap = new ConnectionCap(limits.maxConnections(), socket.toString());
            NettyServerBuilder builder = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                    .channelFactory(() -> {
                        EpollServerDomainSocketChannel listener = new EpollServerDomainSocketChannel();
                        // Added before the bootstrap adds its acceptor, so the cap sees each connection first.
                        listener.pipeline().addLast(cap);
                        return listener;
                    })
                    .bossEventLoopGroup(loop)
                    .workerEventLoopGroup(loop)
                    .maxInboundMessageSize(MAX_REQUEST_BYTES)
                    .handshakeTimeout(limits.handshakeTimeout().toNanos(), TimeUnit.NANOSECONDS)
                    .maxConnectionIdle(limits.maxIdle().toNanos(), TimeUnit.NANOSECONDS);
            if (threads == HandlerThreads.EVENT_LOOP) {
                builder.directExecutor();
            }
            services.forEach(builder::addService);
            server = builder.build().start();
        } catch (IOException | RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new DomainSocketServer(socket, server, loop);
    }

    /**
     * Netty's leak detector (level SIMPLE by default) takes a stack trace of one buffer in 128 when it is
     * allocated and again when it is released: on the agent's C1-compiled code, hundreds of stack walks a second
     * while PodResources is called, for buffers only gRPC itself handles. Off unless the property asks for a level.
     */
    static void noLeakTracesUnlessAsked() {
        if (System.getProperty(LEAK_DETECTION_PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    static void requireEpoll() {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException(
                    "unix domain sockets need Netty's epoll transport (Linux, x86_64 or aarch64), which did not load",
                    Epoll.unavailabilityCause());
        }
    }

    public Path socket() {
        return socket;
    }

    /** Stops accepting calls, lets running calls finish for a few seconds, then frees everything. */
    @Override
    public void close() {
        server.shutdown();
        try {
            if (!server.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
                server.shutdownNow();
                server.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            loop.shutdownGracefully(0, SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            try {
                Files.deleteIfExists(socket);
            } catch (IOException ignored) {
                // A leftover socket file is replaced by the next start; nothing else to do here.
            }
        }
    }
}
