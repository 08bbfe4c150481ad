package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Picks loopback ports nobody listens on, so several planes, agents and other tests can run side by side. The one
 * free-port helper of the repository (the test kit uses it too).
 */
public final class FreePorts {

    private FreePorts() {}

    /** A loopback port that nobody listened on a moment ago (another process may still take it first). */
    public static int next() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port: " + e.getMessage(), e);
        }
    }
}
