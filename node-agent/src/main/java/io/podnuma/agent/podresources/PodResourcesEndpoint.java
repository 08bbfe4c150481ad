package io.podnuma.agent.podresources;

import io.grpc.ServerInterceptors;
import io.podnuma.podresources.ConnectionLimits;
import io.podnuma.podresources.DomainSocketServer;
import io.podnuma.ratelimit.TokenBucket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The PodResources service on its unix socket, behind the rate limit. Calls run on the socket's event loop when the
 * service never waits (no kubelet to ask for devices), else on gRPC's executor. The socket's directory is made, or
 * set when it is the agent's own ({@link SocketDirectory}), rwx for its owner only (0700 for the 0600 socket); the
 * socket's permissions are set right after bind (0600 by default: only root, like the kubelet's socket, may read what
 * runs where). {@link #close()} stops the server and removes the socket file.
 */
public final class PodResourcesEndpoint implements AutoCloseable {

    /** Owner read and write only. */
    public static final int DEFAULT_MODE = 0600;

    /**
     * Where and how to serve.
     *
     * @param mode POSIX permission bits of the socket file, {@code 0} to {@code 0777}
     * @param connections the connection cap and the timeouts for silent and idle connections
     */
    public record Settings(Path socket, int mode, double qps, int burst, ConnectionLimits connections) {

        public Settings {
            Objects.requireNonNull(socket, "socket");
            Objects.requireNonNull(connections, "connections");
            if (mode < 0 || mode > 0777) {
                throw new IllegalArgumentException("PodResources socket mode " + Integer.toOctalString(mode)
                        + " is out of range: use permission bits between 0 and 0777, e.g. 0600");
            }
        }

        /** With {@link ConnectionLimits#DEFAULT}: the agent's config does not expose the limits. */
        public Settings(Path socket, int mode, double qps, int burst) {
            this(socket, mode, qps, burst, ConnectionLimits.DEFAULT);
        }

        public Settings withConnections(ConnectionLimits limits) {
            return new Settings(socket, mode, qps, burst, limits);
        }

        public static Settings defaults(Path socket) {
            return new Settings(
                    socket, DEFAULT_MODE, RateLimitInterceptor.DEFAULT_QPS, RateLimitInterceptor.DEFAULT_BURST);
        }
    }

    private final DomainSocketServer server;
    private final SocketDirectory.Decision directory;

    private PodResourcesEndpoint(DomainSocketServer server, SocketDirectory.Decision directory) {
        this.server = server;
        this.directory = directory;
    }

    public static PodResourcesEndpoint start(Settings settings, PodResourcesService service) throws IOException {
        return start(settings, service, (method, code) -> {});
    }

    /** @param requests told the method and status code of every call when it ends (for metrics) */
    public static PodResourcesEndpoint start(
            Settings settings, PodResourcesService service, java.util.function.BiConsumer<String, String> requests)
            throws IOException {
        TokenBucket bucket = new TokenBucket(settings.qps(), settings.burst());
        Path socket = settings.socket().toAbsolutePath();
        // The socket is as open as the umask allows until its mode is set below; a directory only its owner (and
        // the socket's group) can enter closes that window, and only its owner can replace the socket there. Set
        // before the bind, so the socket never exists in a directory more open than this.
        Path parent = socket.getParent();
        if (parent == null) {
            throw new IOException("PodResources socket " + socket + ": allowed a socket file in a directory");
        }
        SocketDirectory.Decision directory = SocketDirectory.prepare(
                parent, socket.getFileName().toString(), permissions(directoryMode(settings.mode())));
        DomainSocketServer server = DomainSocketServer.start(
                socket,
                List.of(ServerInterceptors.intercept(
                        MalformedRequests.wrap(service.definition()),
                        new RateLimitInterceptor(bucket),
                        new RequestCounter(requests))),
                service.handlerThreads(),
                settings.connections());
        try {
            // Java cannot set a umask, so the socket is briefly as open as the process umask allows.
            Files.setPosixFilePermissions(socket, permissions(settings.mode()));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw new IOException(
                    "cannot set permissions " + Integer.toOctalString(settings.mode()) + " on PodResources socket "
                            + socket + ": " + e.getMessage(),
                    e);
        }
        return new PodResourcesEndpoint(server, directory);
    }

    public Path socket() {
        return server.socket();
    }

    /** What the start did with the socket's directory, for the agent's log. */
    public SocketDirectory.Decision directory() {
        return directory;
    }

    /**
     * The mode of a directory made for a socket of {@code socketMode}: rwx for the owner, r-x for a class the socket
     * lets in (so it can reach the socket but never replace it), nothing for the others: 0600 gives 0700, 0660 0750.
     */
    static int directoryMode(int socketMode) {
        int out = 0;
        for (int shift = 6; shift >= 0; shift -= 3) {
            if (((socketMode >> shift) & 07) != 0) {
                out |= (shift == 6 ? 07 : 05) << shift;
            }
        }
        return out;
    }

    /** POSIX permission bits (e.g. {@code 0640}) as the permission set. */
    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE
        };
        for (int i = 0; i < order.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                out.add(order[i]);
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.close();
    }
}
