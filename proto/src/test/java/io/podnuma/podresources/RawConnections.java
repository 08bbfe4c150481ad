package io.podnuma.podresources;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Connections to a gRPC socket that send nothing, to see what the server does with an idle or excess client: its
 * HTTP/2 settings first, then a close. Shared with the agent's PodResources tests through this module's test-jar (it
 * cannot live in the test kit, which depends on this module).
 */
public final class RawConnections {

    private RawConnections() {}

    public static SocketChannel connect(Path socket) throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(socket));
    }

    /** Waits (at most 30 s) for the server's first bytes on a connection that sends nothing; returns how many. */
    public static int firstBytes(SocketChannel ch) throws IOException {
        return read(ch, Duration.ofSeconds(30), true);
    }

    /** Reads until the server closes the connection, at most {@code within}; returns the bytes it sent first. */
    public static int bytesUntilClosed(SocketChannel ch, Duration within) throws IOException {
        return read(ch, within, false);
    }

    private static int read(SocketChannel ch, Duration within, boolean firstBytesOnly) throws IOException {
        ch.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            ch.register(selector, SelectionKey.OP_READ);
            long deadline = System.nanoTime() + within.toNanos();
            ByteBuffer buf = ByteBuffer.allocate(4096);
            int total = 0;
            while (true) {
                int n;
                while ((n = ch.read(buf)) > 0) {
                    total += n;
                    buf.clear();
                }
                if (n < 0 || (firstBytesOnly && total > 0)) {
                    return total;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the server neither sent a byte nor closed the connection within " + within
                            + " (" + total + " bytes so far)");
                }
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                selector.selectedKeys().clear();
            }
        }
    }
}
