package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Pods on a real worker node ({@link RealNode}, {@link GuestNode}), through the plane the node is registered with. */
final class NodePods {

    private NodePods() {}

    /**
     * Applies a pod with one container {@code main} running the pause image and waits (90 s at most) until it runs
     * with every container ID in its status.
     *
     * @param podLines YAML lines of the pod spec before {@code containers}, indented two spaces (e.g. pod-level
     *     {@code resources}), or empty
     * @param containerLines YAML lines of the container, indented four spaces (e.g. its {@code resources}), or empty
     */
    static Pod runPausePod(
            LocalControlPlane plane, String namespace, String name, String podLines, String containerLines) {
        plane.kubectlWithStdin(
                        """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: %s
                          namespace: %s
                        spec:
                          terminationGracePeriodSeconds: 5
                        %s  containers:
                          - name: main
                            image: %s
                            imagePullPolicy: Never
                        %s""".formatted(name, namespace, podLines, RealNode.PAUSE_IMAGE, containerLines),
                        "apply",
                        "-f",
                        "-")
                .assertSuccess();
        return awaitRunning(plane, namespace, name, Duration.ofSeconds(90));
    }

    /**
     * Waits ({@code bound} at most) until the pod runs with a container ID for every container, native sidecars (init
     * containers with {@code restartPolicy: Always}) included, and returns it.
     */
    static Pod awaitRunning(LocalControlPlane plane, String namespace, String name, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            Pod p = plane.client().pods().inNamespace(namespace).withName(name).get();
            if (p != null && "Running".equals(p.getStatus().getPhase()) && everyContainerStarted(p)) {
                return p;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("pod " + namespace + "/" + name + " is not running with container IDs"
                        + " after " + bound.toSeconds() + " s: " + (p == null ? "not found" : p.getStatus()));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for pod " + namespace + "/" + name, e);
            }
        }
    }

    private static boolean everyContainerStarted(Pod p) {
        List<io.fabric8.kubernetes.api.model.ContainerStatus> statuses = new ArrayList<>();
        if (p.getStatus().getContainerStatuses() != null) {
            statuses.addAll(p.getStatus().getContainerStatuses());
        }
        long sidecars = p.getSpec().getInitContainers() == null
                ? 0
                : p.getSpec().getInitContainers().stream()
                        .filter(c -> "Always".equals(c.getRestartPolicy()))
                        .count();
        List<io.fabric8.kubernetes.api.model.ContainerStatus> init =
                p.getStatus().getInitContainerStatuses() == null
                        ? List.of()
                        : p.getStatus().getInitContainerStatuses();
        statuses.addAll(init);
        return statuses.size() == p.getSpec().getContainers().size() + init.size()
                && init.size() >= sidecars
                && !statuses.isEmpty()
                && statuses.stream()
                        .allMatch(c -> c.getContainerID() != null
                                && c.getState() != null
                                && (c.getState().getRunning() != null
                                        || c.getState().getTerminated() != null));
    }
}
