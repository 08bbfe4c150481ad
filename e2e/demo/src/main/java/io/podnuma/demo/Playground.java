package io.podnuma.demo;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The keep-running phase of the demo: what the demo set up stays up, the user is told how to reach it, and it waits
 * for a stop ({@link StopSignal}); the caller then closes what it started.
 *
 * @param kubeconfig the control plane's admin kubeconfig
 * @param binDir the test kit's binaries: kubectl and helm built for this control plane's version
 * @param examplePod a pod manifest to apply, if there is a node to run it
 * @param tryLines commands worth trying, in the order shown
 */
public record Playground(Path kubeconfig, Path binDir, Optional<Path> examplePod, List<String> tryLines) {

    /** The line a user (and a test) waits for: everything is up. */
    public static final String READY = "podnuma playground: ready to use";

    /** The last line of the instructions that follow {@link #READY}: a reader has them all once it sees this. */
    public static final String HOW_TO_STOP = "Ctrl-C here (or kill -TERM ";

    /** Prints how to reach the playground and waits until {@code stop}; returns the signal's name. */
    public String hold(PrintStream out, StopSignal stop) throws InterruptedException {
        out.printf("%n== Playground: kept running until Ctrl-C ==%n");
        out.printf(
                "%s %.1f s after the demo's JVM started (pid %d)%n",
                READY, sinceJvmStart(), ProcessHandle.current().pid());
        out.println("In another terminal:");
        out.println("  export KUBECONFIG=" + kubeconfig);
        out.println(
                "  export PATH=" + binDir + ":$PATH     # kubectl and helm of the test kit, built for this API server");
        examplePod.ifPresent(pod -> {
            out.println("  kubectl apply -f " + pod + "     # a Guaranteed pod with a 1-CPU pod budget");
        });
        tryLines.forEach(line -> out.println("  " + line));
        out.println(HOW_TO_STOP + ProcessHandle.current().pid()
                + ") tears everything down and checks that the host is left as it was.");
        out.flush();
        String why = stop.await();
        out.printf("%n%s: tearing the playground down%n", why);
        return why;
    }

    private static double sinceJvmStart() {
        return Duration.ofMillis(System.currentTimeMillis()
                                - ManagementFactory.getRuntimeMXBean().getStartTime())
                        .toMillis()
                / 1000.0;
    }
}
