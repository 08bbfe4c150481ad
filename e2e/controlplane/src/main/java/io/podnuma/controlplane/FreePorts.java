package io.podnuma.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks loopback ports nobody listens on, so several planes, agents and other tests can run side by side. The one
 * free-port helper of the repository (the test kit uses it too).
 *
 * <p>The ports come from below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), never from it: a
 * port the kernel hands out for port 0 is released when the probe closes and goes back to the pool the outgoing
 * connections of every process draw their local ports from, so with two test JVMs talking to their API servers the
 * port could be some connection's by the time the agent or the API server binds it ("Address already in use", seen
 * once the operator's ITs ran in two JVMs). Below the range only listeners take ports. Each JVM starts at a random
 * place in it and never hands out a port twice.
 */
public final class FreePorts {

    /** The lowest port handed out: above the well-known and the usual registered service ports of a dev machine. */
    static final int LOWEST = 15_000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {}

    /** A loopback port that nobody listened on a moment ago and that no outgoing connection takes. */
    public static synchronized int next() {
        int end = ephemeralStart();
        if (end - LOWEST < 1_000) {
            return kernelPick(); // a machine whose ephemeral range starts low: the kernel's pick, as before
        }
        int span = end - LOWEST;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = LOWEST + (start + i) % span;
            if (!HANDED_OUT.contains(port) && bindable(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port between " + LOWEST + " and " + end);
    }

    /** The first port of the kernel's ephemeral range; 32768 (Linux's default) when it cannot be read. */
    static int ephemeralStart() {
        // A line read, not Files.readString: on this machine that returned "3" for this file, where a plain
        // sequential read gives "32768\t60999".
        try (BufferedReader in = Files.newBufferedReader(EPHEMERAL_RANGE)) {
            String[] range = in.readLine().trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int kernelPick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port: " + e.getMessage(), e);
        }
    }
}
