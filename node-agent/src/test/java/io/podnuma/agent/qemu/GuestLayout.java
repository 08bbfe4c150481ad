package io.podnuma.agent.qemu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.controlplane.GuestTopology;
import java.util.ArrayList;
import java.util.List;

/** The emulated machine ({@link GuestTopology}) as the agent's types see it: CPU sets per node, core and socket. */
record GuestLayout(GuestTopology topology) {

    int cpus() {
        return topology.cpus();
    }

    int nodes() {
        return topology.nodes();
    }

    int sockets() {
        return topology.sockets();
    }

    int nodesPerSocket() {
        return topology.nodesPerSocket();
    }

    int threadsPerCore() {
        return topology.threadsPerCore();
    }

    int memoryMiBPerNode() {
        return topology.memoryMiBPerNode();
    }

    CpuSet cpusOfNode(int node) {
        return CpuSet.range(topology.firstCpu(node), topology.lastCpu(node));
    }

    int nodeOf(int cpu) {
        return cpu / topology.cpusPerNode();
    }

    int socketOf(int cpu) {
        return nodeOf(cpu) / topology.nodesPerSocket();
    }

    CpuSet siblingsOf(int cpu) {
        int first = cpu - cpu % threadsPerCore();
        return CpuSet.range(first, first + threadsPerCore() - 1);
    }

    List<Integer> distancesFrom(int node) {
        List<Integer> d = new ArrayList<>();
        for (int to = 0; to < nodes(); to++) {
            d.add(topology.distance(node, to));
        }
        return d;
    }

    List<String> qemuArguments() {
        return topology.qemuArguments();
    }
}
