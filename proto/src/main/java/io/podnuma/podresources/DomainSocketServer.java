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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plaintext gRPC server on a unix domain socket, as the kubelet serves PodResources. It owns its
 * epoll event loops and its socket file; {@link #close()} releases all three.
 */
public final class DomainSocketServer implements AutoCloseable {

    private static final long SHUTDOWN_GRACE_SECONDS = 5;

    private final Path socket;
    private final Server server;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;

    private DomainSocketServer(Path socket, Server server, EventLoopGroup boss, EventLoopGroup workers) {
        this.socket = socket;
        this.server = server;
        this.boss = boss;
        this.workers = workers;
    }

    /**
     * Binds {@code socket} (replacing a stale socket file) and starts serving {@code services}: a
     * service's {@code bindService()}, or its definition wrapped by {@code ServerInterceptors}.
     *
     * @throws IllegalStateException if the epoll transport cannot load (not Linux, or no native library)
     */
    public static DomainSocketServer start(Path socket, List<ServerServiceDefinition> services) throws IOException {
        requireEpoll();
        DomainSocketPaths.prepareForBind(socket);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(0, EpollIoHandler.newFactory());
        Server server;
        try {
            NettyServerBuilder builder = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                    .channelType(EpollServerDomainSocketChannel.class)
                    .bossEventLoopGroup(boss)
                    .workerEventLoopGroup(workers);
            services.forEach(builder::addService);
            server = builder.build().start();
        } catch (IOException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new DomainSocketServer(socket, server, boss, workers);
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
            boss.shutdownGracefully(0, SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            try {
                Files.deleteIfExists(socket);
            } catch (IOException ignored) {
                // A leftover socket file is replaced by the next start; nothing else to do here.
            }
        }
    }
}
