package io.podnuma.agent.engine.machine;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * Small machines for table tests, described CPU by CPU the way the kubelet's tests describe theirs
 * (core, socket, NUMA node, L3 per CPU id), plus a random generator for property tests.
 */
public final class TestTopologies {

    private TestTopologies() {}

    /** Builds a machine from per-CPU functions over CPUs {@code 0..numCpus-1}. */
    public static CpuTopology build(
            int numCpus,
            IntUnaryOperator core,
            IntUnaryOperator socket,
            IntUnaryOperator numa,
            IntUnaryOperator uncore) {
        return build(numCpus, core, socket, numa, uncore, CpuSet.empty());
    }

    /** As {@link #build(int, IntUnaryOperator, IntUnaryOperator, IntUnaryOperator, IntUnaryOperator)}, with offline CPUs. */
    public static CpuTopology build(
            int numCpus,
            IntUnaryOperator core,
            IntUnaryOperator socket,
            IntUnaryOperator numa,
            IntUnaryOperator uncore,
            CpuSet offline) {
        Map<Integer, CpuSet.Builder> byCore = new TreeMap<>();
        Map<Integer, CpuSet.Builder> allNodes = new TreeMap<>();
        for (int cpu = 0; cpu < numCpus; cpu++) {
            allNodes.computeIfAbsent(numa.applyAsInt(cpu), k -> CpuSet.builder());
            if (offline.contains(cpu)) {
                continue;
            }
            byCore.computeIfAbsent(core.applyAsInt(cpu), k -> CpuSet.builder()).add(cpu);
        }
        Map<Integer, CpuSet> siblings = new HashMap<>();
        byCore.forEach((k, b) -> siblings.put(k, b.build()));
        List<CpuInfo> cpus = new ArrayList<>();
        for (int cpu = 0; cpu < numCpus; cpu++) {
            if (offline.contains(cpu)) {
                continue;
            }
            CpuSet sib = siblings.get(core.applyAsInt(cpu));
            int node = numa.applyAsInt(cpu);
            cpus.add(new CpuInfo(
                    cpu,
                    socket.applyAsInt(cpu),
                    0,
                    node,
                    sib.first(),
                    core.applyAsInt(cpu),
                    uncore.applyAsInt(cpu),
                    sib));
            allNodes.get(node).add(cpu);
        }
        List<NumaNode> nodes = new ArrayList<>();
        allNodes.forEach((id, b) -> nodes.add(new NumaNode(id, b.build(), 1L << 34, Map.of(), List.of())));
        return new CpuTopology(cpus, offline, nodes);
    }

    /** 1 socket, 4 cores, 8 CPUs; siblings N and N+4. */
    public static final CpuTopology SINGLE_SOCKET_HT = build(8, c -> c % 4, c -> 0, c -> 0, c -> 0);

    /** 2 sockets, 6 cores, 12 CPUs; core = cpu mod 6, even cores on socket 0; NUMA = socket. */
    public static final CpuTopology DUAL_SOCKET_HT = build(12, c -> c % 6, c -> (c % 6) % 2, c -> (c % 6) % 2, c -> 0);

    /** 2 sockets, 8 CPUs, no SMT: CPUs 0-3 on socket 0. */
    public static final CpuTopology DUAL_SOCKET_NO_HT = build(8, c -> c, c -> c / 4, c -> c / 4, c -> 0);

    /** 2 sockets x 2 NUMA nodes, 40 cores, 80 CPUs; siblings N and N+40; 10 cores per node. */
    public static final CpuTopology DUAL_SOCKET_MULTI_NUMA_HT =
            build(80, c -> c % 40, c -> (c % 40) / 20, c -> (c % 40) / 10, c -> 0);

    /** 2 sockets, 16 CPUs without SMT, an L3 per 4 CPUs. */
    public static final CpuTopology UNCORE_DUAL_SOCKET_NO_SMT = build(16, c -> c, c -> c / 8, c -> c / 8, c -> c / 4);

    /** 1 socket, 16 CPUs without SMT, an L3 per 4 CPUs. */
    public static final CpuTopology UNCORE_SINGLE_SOCKET_NO_SMT = build(16, c -> c, c -> 0, c -> 0, c -> c / 4);

    /** 1 socket, 8 cores, 16 CPUs (siblings N and N+8), an L3 per 4 cores. */
    public static final CpuTopology UNCORE_SINGLE_SOCKET_SMT = build(16, c -> c % 8, c -> 0, c -> 0, c -> (c % 8) / 4);

    /**
     * A random machine: 1-2 sockets, 1-4 NUMA nodes per socket, 1-3 L3 groups per node, 1-6 cores per
     * L3, 1-2 threads, siblings numbered either adjacent (N, N+1) or offset (N, N+cores).
     */
    public static CpuTopology random(java.util.Random rnd) {
        return random(rnd, false);
    }

    /**
     * A random machine; with {@code withOffline}, up to a quarter of its CPUs (never CPU 0) are
     * offline, which makes it asymmetric (cores with fewer threads, sockets with fewer CPUs).
     */
    public static CpuTopology random(java.util.Random rnd, boolean withOffline) {
        int sockets = 1 + rnd.nextInt(2);
        int numaPerSocket = 1 + rnd.nextInt(sockets == 1 ? 4 : 4);
        int l3PerNuma = 1 + rnd.nextInt(3);
        int coresPerL3 = 1 + rnd.nextInt(6);
        int threads = 1 + rnd.nextInt(2);
        boolean adjacent = rnd.nextBoolean();
        int coresPerNuma = l3PerNuma * coresPerL3;
        int coresPerSocket = coresPerNuma * numaPerSocket;
        int totalCores = coresPerSocket * sockets;
        int numCpus = totalCores * threads;
        IntUnaryOperator coreIndex = adjacent ? c -> c / threads : c -> c % totalCores;
        IntUnaryOperator coreId = c -> {
            int k = coreIndex.applyAsInt(c);
            return adjacent ? k * threads : k;
        };
        CpuSet.Builder offline = CpuSet.builder();
        if (withOffline && numCpus > 1) {
            int count = rnd.nextInt(Math.max(1, numCpus / 4) + 1);
            for (int i = 0; i < count; i++) {
                offline.add(1 + rnd.nextInt(numCpus - 1));
            }
        }
        return build(
                numCpus,
                coreId,
                c -> coreIndex.applyAsInt(c) / coresPerSocket,
                c -> coreIndex.applyAsInt(c) / coresPerNuma,
                c -> coreIndex.applyAsInt(c) / coresPerL3,
                offline.build());
    }
}
