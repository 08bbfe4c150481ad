package io.podnuma.controlplane;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the local control plane until interrupted, for poking at it by hand:
 * {@code ./mvnw -q -pl e2e/controlplane exec:java -Dexec.mainClass=io.podnuma.controlplane.RunControlPlane
 * -Dexec.args="--nodes 2"}.
 */
public final class RunControlPlane {

    private RunControlPlane() {}

    public static void main(String[] args) throws InterruptedException {
        int nodes = parseNodes(args);
        LocalControlPlane plane = LocalControlPlane.start();
        if (nodes > 0) {
            List<String> names = plane.ensureNodes(nodes);
            System.out.println("kwok nodes: " + String.join(", ", names));
        }
        System.out.println("API server " + plane.server() + "; logs in " + plane.logDir());
        System.out.println("export KUBECONFIG=" + plane.kubeconfig());
        System.out.println("export PATH=" + plane.binDir() + ":$PATH");
        System.out.println("Press Ctrl-C to stop everything.");
        // The plane's shutdown hook stops the processes when the JVM is interrupted.
        new CountDownLatch(1).await();
    }

    static int parseNodes(String[] args) {
        if (args.length == 0) {
            return 0;
        }
        if (args.length == 2 && args[0].equals("--nodes")) {
            try {
                int nodes = Integer.parseInt(args[1]);
                if (nodes >= 0) {
                    return nodes;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException(
                "usage: RunControlPlane [--nodes N] with N a whole number >= 0, got " + String.join(" ", args));
    }
}
