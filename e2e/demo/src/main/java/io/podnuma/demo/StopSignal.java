package io.podnuma.demo;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * SIGINT (Ctrl-C) and SIGTERM as a request to stop that the main thread acts on, once the playground is up: it then
 * closes what it started in order (the real node undoes its host changes, then the control planes stop) and reports
 * what is left, while the JVM is still whole. Left to the JVM's default, the signal starts the shutdown hooks, and
 * the node's and the planes' hooks would tear down concurrently with nothing to say when the host is clean.
 *
 * <p>{@code sun.misc.Signal} (module jdk.unsupported) is the JDK's one way to handle a signal without shutting down.
 * A second signal while tearing down is only reported: stopping half-way is what would leave mounts and cgroups (the
 * next run of a real node would still undo them).
 */
public final class StopSignal {
    private static final List<String> SIGNALS = List.of("INT", "TERM");

    private final CountDownLatch stop = new CountDownLatch(1);
    private final PrintStream out;
    private volatile String reason = "";

    private StopSignal(PrintStream out) {
        this.out = out;
    }

    /** From now on, SIGINT and SIGTERM are requests to this object instead of the JVM's shutdown. */
    @SuppressWarnings("restriction")
    public static StopSignal install(PrintStream out) {
        StopSignal signal = new StopSignal(out);
        for (String name : SIGNALS) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> signal.request("SIG" + s.getName()));
        }
        return signal;
    }

    /** Asks the waiting thread to stop; {@code why} is what it reports (the signal's name). */
    public void request(String why) {
        if (stop.getCount() == 0) {
            out.printf(
                    "%n%s: already tearing down, wait for it (a kill -9 now would leave the node's mounts and cgroups"
                            + " for the next run to undo)%n",
                    why);
            return;
        }
        reason = why;
        stop.countDown();
    }

    /** Blocks until a stop is requested; returns why. */
    public String await() throws InterruptedException {
        stop.await();
        return reason;
    }
}
