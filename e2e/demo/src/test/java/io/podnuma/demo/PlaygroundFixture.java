package io.podnuma.demo;

import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import java.util.List;
import java.util.Optional;

/**
 * The demo's keep-running phase on the test kit's control plane, as a program of its own: {@link PlaygroundIT} starts
 * it in a JVM, uses what it prints, signals it and checks that it closed the plane. Exit 3: no control plane here.
 */
public final class PlaygroundFixture {
    static final String UNAVAILABLE = "control plane unavailable: ";
    static final String CLOSED = "playground fixture: control plane closed";

    private PlaygroundFixture() {}

    public static void main(String[] args) throws Exception {
        LocalControlPlane started;
        try {
            started = LocalControlPlane.start();
        } catch (ControlPlaneUnavailableException e) {
            System.out.println(UNAVAILABLE + e.getMessage());
            System.exit(3);
            return;
        }
        try (LocalControlPlane plane = started) {
            new Playground(plane.kubeconfig(), plane.binDir(), Optional.empty(), List.of("kubectl get namespaces"))
                    .hold(System.out, StopSignal.install(System.out));
        }
        System.out.println(CLOSED);
    }
}
