package io.podnuma.controlplane;

import java.util.ArrayList;
import java.util.List;

/**
 * An emulated machine's shape: sockets, NUMA nodes per socket (sub-NUMA clustering), cores per node, SMT threads per
 * core, memory per node and two distances. QEMU numbers CPUs socket by socket, core by core, thread by thread, so node
 * {@code n} holds the contiguous CPUs {@link #firstCpu}..{@link #lastCpu}.
 */
public record GuestTopology(
        int sockets,
        int nodesPerSocket,
        int coresPerNode,
        int threadsPerCore,
        int memoryMiBPerNode,
        int sameSocketDistance,
        int otherSocketDistance) {

    public static final int LOCAL_DISTANCE = 10;

    /** 2 NUMA nodes (one per socket) × 2 cores × 2 threads: 8 CPUs. */
    public static final GuestTopology TWO_NODES = new GuestTopology(2, 1, 2, 2, 1024, 12, 21);

    /** 4 NUMA nodes (two per socket) × 2 cores × 2 threads: 16 CPUs. */
    public static final GuestTopology FOUR_NODES = new GuestTopology(2, 2, 2, 2, 512, 12, 21);

    public GuestTopology {
        if (sockets < 1 || nodesPerSocket < 1 || coresPerNode < 1 || threadsPerCore < 1 || memoryMiBPerNode < 64) {
            throw new IllegalArgumentException("a guest needs at least 1 socket, node, core and thread and 64 MiB per"
                    + " node, got " + sockets + "/" + nodesPerSocket + "/" + coresPerNode + "/" + threadsPerCore + "/"
                    + memoryMiBPerNode + " MiB");
        }
    }

    public int cpus() {
        return nodes() * cpusPerNode();
    }

    public int nodes() {
        return sockets * nodesPerSocket;
    }

    public int cpusPerNode() {
        return coresPerNode * threadsPerCore;
    }

    public int firstCpu(int node) {
        return node * cpusPerNode();
    }

    public int lastCpu(int node) {
        return (node + 1) * cpusPerNode() - 1;
    }

    public int distance(int from, int to) {
        if (from == to) {
            return LOCAL_DISTANCE;
        }
        return from / nodesPerSocket == to / nodesPerSocket ? sameSocketDistance : otherSocketDistance;
    }

    /** The QEMU options that build this machine (memory, SMP shape, one memory backend per node, distances). */
    public List<String> qemuArguments() {
        List<String> a = new ArrayList<>(List.of(
                "-m",
                (memoryMiBPerNode * nodes()) + "M",
                "-smp",
                cpus() + ",sockets=" + sockets + ",cores=" + (nodesPerSocket * coresPerNode) + ",threads="
                        + threadsPerCore));
        for (int n = 0; n < nodes(); n++) {
            a.addAll(List.of(
                    "-object",
                    "memory-backend-ram,id=mem" + n + ",size=" + memoryMiBPerNode + "M",
                    "-numa",
                    "node,nodeid=" + n + ",cpus=" + firstCpu(n) + "-" + lastCpu(n) + ",memdev=mem" + n));
        }
        for (int from = 0; from < nodes(); from++) {
            for (int to = 0; to < nodes(); to++) {
                if (from != to) {
                    a.addAll(List.of("-numa", "dist,src=" + from + ",dst=" + to + ",val=" + distance(from, to)));
                }
            }
        }
        return a;
    }
}
