package io.podnuma.agent.qemu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The emulated machine: sockets, NUMA nodes per socket (sub-NUMA clustering), cores per node, SMT
 * threads per core, memory per node and two distances. QEMU numbers CPUs socket by socket, core by
 * core, thread by thread, so node {@code n} holds a contiguous block of CPUs.
 */
record GuestLayout(
        int sockets,
        int nodesPerSocket,
        int coresPerNode,
        int threadsPerCore,
        int memoryMiBPerNode,
        int sameSocketDistance,
        int otherSocketDistance) {

    static final int LOCAL_DISTANCE = 10;

    int cpus() {
        return sockets * nodesPerSocket * coresPerNode * threadsPerCore;
    }

    int nodes() {
        return sockets * nodesPerSocket;
    }

    int cpusPerNode() {
        return coresPerNode * threadsPerCore;
    }

    CpuSet cpusOfNode(int node) {
        return CpuSet.range(node * cpusPerNode(), (node + 1) * cpusPerNode() - 1);
    }

    int nodeOf(int cpu) {
        return cpu / cpusPerNode();
    }

    int socketOf(int cpu) {
        return nodeOf(cpu) / nodesPerSocket;
    }

    CpuSet siblingsOf(int cpu) {
        int first = cpu - cpu % threadsPerCore;
        return CpuSet.range(first, first + threadsPerCore - 1);
    }

    int distance(int from, int to) {
        if (from == to) {
            return LOCAL_DISTANCE;
        }
        return from / nodesPerSocket == to / nodesPerSocket ? sameSocketDistance : otherSocketDistance;
    }

    List<Integer> distancesFrom(int node) {
        List<Integer> d = new ArrayList<>();
        for (int to = 0; to < nodes(); to++) {
            d.add(distance(node, to));
        }
        return d;
    }

    /** The QEMU options that build this machine (memory, SMP shape, one memory backend per node, distances). */
    List<String> qemuArguments() {
        List<String> a = new ArrayList<>(List.of(
                "-m",
                (memoryMiBPerNode * nodes()) + "M",
                "-smp",
                cpus() + ",sockets=" + sockets + ",cores=" + (nodesPerSocket * coresPerNode) + ",threads="
                        + threadsPerCore));
        for (int n = 0; n < nodes(); n++) {
            CpuSet cpus = cpusOfNode(n);
            a.addAll(List.of(
                    "-object", "memory-backend-ram,id=mem" + n + ",size=" + memoryMiBPerNode + "M",
                    "-numa", "node,nodeid=" + n + ",cpus=" + cpus.first() + "-" + cpus.last() + ",memdev=mem" + n));
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
