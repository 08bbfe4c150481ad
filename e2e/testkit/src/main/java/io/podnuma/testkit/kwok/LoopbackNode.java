package io.podnuma.testkit.kwok;

import io.podnuma.controlplane.ControlPlane;
import java.util.Map;

/**
 * A kwok node that stands for this machine: its InternalIP is {@value #ADDRESS}, so a host-network pod on it (the
 * agent's DaemonSet pod, a {@link StandInPods stand-in} for the operator) has the address where the process it stands
 * for listens, and Prometheus' pod discovery finds that process.
 */
public final class LoopbackNode {

    /** The node's InternalIP: where this machine's processes listen. */
    public static final String ADDRESS = "127.0.0.1";

    private LoopbackNode() {}

    /**
     * Makes sure the kwok node {@code name} exists ({@link ControlPlane#ensureNode}) and gives it the address
     * {@value #ADDRESS}; returns its name.
     */
    public static String ensure(
            ControlPlane cp, String name, Map<String, String> labels, Map<String, String> allocatable) {
        String node = cp.ensureNode(name, labels, allocatable);
        cp.kubectl(
                        "patch",
                        "node",
                        node,
                        "--subresource=status",
                        "--type=merge",
                        "-p",
                        "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"" + ADDRESS
                                + "\"},{\"type\":\"Hostname\",\"address\":\"" + node + "\"}]}}")
                .assertSuccess();
        return node;
    }
}
