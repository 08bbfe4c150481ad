package io.podnuma.controlplane;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link GuestNode} is built: the machine, the kubelet's own resource managers, the OCI image tars its
 * containerd has when it starts (imported on the host beside the pause image, {@code ContainerdPreload}), and the
 * number of the guest's TCP ports the host reaches on its loopback at the same number (e.g. a host-network agent's
 * metrics; the kubelet's port is always forwarded; {@link GuestNode#forwardedPorts} says which they are), and the
 * emulator's CPU priority (raised only for a guest on the build's
 * critical path).
 */
public record GuestNodeOptions(
        GuestTopology topology,
        KubeletManagers managers,
        List<Path> images,
        int forwardedPorts,
        GuestKernel.Priority priority,
        GuestKernel.Line kernel) {

    /** The kubelet's CPU, memory and topology managers. */
    public enum KubeletManagers {
        /** podnuma's setting: the kubelet pins nothing. */
        NONE("cpuManagerPolicy: none\n"),
        /**
         * The kubelet as an oracle: the static CPU manager (CPU 0 reserved), the memory manager {@code Static} (128 MiB
         * of NUMA node 0 reserved: the system's 127 MiB and the 1 MiB eviction threshold) and the topology manager
         * {@code single-numa-node} with pod scope, which the pod-level managers need to pin a pod's budget. Its
         * reconcile loop runs every 2 s (default 10 s), so shared-pool containers follow a new exclusive allocation
         * within seconds.
         */
        STATIC_SINGLE_NUMA_NODE_POD_SCOPE("""
                cpuManagerPolicy: static
                cpuManagerReconcilePeriod: 2s
                reservedSystemCPUs: "0"
                memoryManagerPolicy: Static
                systemReserved:
                  memory: 127Mi
                reservedMemory:
                - numaNode: 0
                  limits:
                    memory: 128Mi
                topologyManagerPolicy: single-numa-node
                topologyManagerScope: pod
                """);

        private final String kubeletLines;

        KubeletManagers(String kubeletLines) {
            this.kubeletLines = kubeletLines;
        }

        String kubeletLines() {
            return kubeletLines;
        }
    }

    public GuestNodeOptions {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(managers, "managers");
        Objects.requireNonNull(priority, "priority");
        images = List.copyOf(images);
        if (forwardedPorts < 0) {
            throw new IllegalArgumentException("forwardedPorts " + forwardedPorts + ": allowed 0 or more");
        }
    }

    public static GuestNodeOptions of(GuestTopology topology, KubeletManagers managers) {
        return new GuestNodeOptions(
                topology, managers, List.of(), 0, GuestKernel.Priority.NORMAL, GuestKernel.Line.DEBIAN_DEFAULT);
    }

    public GuestNodeOptions withImages(List<Path> tars) {
        return new GuestNodeOptions(topology, managers, tars, forwardedPorts, priority, kernel);
    }

    /**
     * {@code count} ports forwarded besides the kubelet's. The guest picks them once it holds the guest lock, just
     * before it boots: ports picked before a wait for another test's guest could be some other listener's by then
     * (QEMU then cannot set its forwarding up and exits).
     */
    public GuestNodeOptions withForwardedPorts(int count) {
        return new GuestNodeOptions(topology, managers, images, count, priority, kernel);
    }

    public GuestNodeOptions withPriority(GuestKernel.Priority emulator) {
        return new GuestNodeOptions(topology, managers, images, forwardedPorts, emulator, kernel);
    }

    /** The guest boots {@code line}'s kernel (the default: Debian's). */
    public GuestNodeOptions withKernel(GuestKernel.Line line) {
        return new GuestNodeOptions(topology, managers, images, forwardedPorts, priority, line);
    }
}
