package io.podnuma.agent.nri.mux;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/** Two connected AF_UNIX channels through a socket file in a temporary directory. */
record SocketPair(SocketChannel left, SocketChannel right) implements AutoCloseable {

    static SocketPair open(Path dir) throws IOException {
        Path socket = dir.resolve("pair.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            SocketChannel left = SocketChannel.open(UnixDomainSocketAddress.of(socket));
            SocketChannel right = server.accept();
            return new SocketPair(left, right);
        }
    }

    static byte[] readExactly(SocketChannel channel, int n) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(n);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("end of stream after " + buffer.position() + " of " + n + " bytes");
            }
        }
        return buffer.array();
    }

    static void writeAll(SocketChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    @Override
    public void close() throws IOException {
        left.close();
        right.close();
    }
}
