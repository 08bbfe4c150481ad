package io.podnuma.agent.sysfs;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.List;

/**
 * A machine layout to write as a fake sysfs tree. CPUs are numbered as x86 Linux does: all first
 * threads of every core, then all second threads (so SMT siblings are N and N + cores).
 *
 * @param name the fixture directory name
 * @param sockets packages
 * @param coresPerSocket physical cores per package
 * @param threadsPerCore SMT threads per core
 * @param numaPerSocket NUMA nodes per package (2 = sub-NUMA clustering, 4 = AMD NPS4)
 * @param l3PerSocket L3 groups per package (AMD: one per CCX/CCD)
 * @param memoryPerNodeKiB {@code MemTotal} of each CPU node
 * @param hugepages2MiPerNode pre-allocated 2 MiB pages per CPU node
 * @param hugepages1GiPerNode pre-allocated 1 GiB pages per CPU node
 * @param sameSocketDistance distance between two nodes of one package
 * @param crossSocketDistance distance between nodes of different packages
 * @param offline CPUs present but offline
 * @param memoryOnlyNodes extra nodes with memory and no CPUs (CXL), numbered after the CPU nodes
 * @param memoryOnlyNodeKiB {@code MemTotal} of each memory-only node
 * @param memoryOnlyDistance distance between a memory-only node and any other node
 */
public record FakeMachine(
        String name,
        int sockets,
        int coresPerSocket,
        int threadsPerCore,
        int numaPerSocket,
        int l3PerSocket,
        long memoryPerNodeKiB,
        long hugepages2MiPerNode,
        long hugepages1GiPerNode,
        int sameSocketDistance,
        int crossSocketDistance,
        CpuSet offline,
        int memoryOnlyNodes,
        long memoryOnlyNodeKiB,
        int memoryOnlyDistance) {

    static final long GIB_IN_KIB = 1024L * 1024L;

    public FakeMachine {
        if (coresPerSocket % numaPerSocket != 0 || coresPerSocket % l3PerSocket != 0) {
            throw new IllegalArgumentException(name + ": cores per socket must divide into NUMA nodes and L3 groups");
        }
    }

    int totalCores() {
        return sockets * coresPerSocket;
    }

    int totalCpus() {
        return totalCores() * threadsPerCore;
    }

    int cpuNumaNodes() {
        return sockets * numaPerSocket;
    }

    int totalNodes() {
        return cpuNumaNodes() + memoryOnlyNodes;
    }

    /** Global core index (0..totalCores-1) of a CPU. */
    int coreOf(int cpu) {
        return cpu % totalCores();
    }

    int socketOf(int cpu) {
        return coreOf(cpu) / coresPerSocket;
    }

    /** The kernel's core_id: the index within the package. */
    int kernelCoreId(int cpu) {
        return coreOf(cpu) % coresPerSocket;
    }

    int numaOf(int cpu) {
        return socketOf(cpu) * numaPerSocket + kernelCoreId(cpu) / (coresPerSocket / numaPerSocket);
    }

    int l3Of(int cpu) {
        return socketOf(cpu) * l3PerSocket + kernelCoreId(cpu) / (coresPerSocket / l3PerSocket);
    }

    CpuSet online() {
        return CpuSet.range(0, totalCpus() - 1).difference(offline);
    }

    CpuSet threadsOfCore(int core) {
        CpuSet.Builder b = CpuSet.builder();
        for (int t = 0; t < threadsPerCore; t++) {
            b.add(t * totalCores() + core);
        }
        return b.build();
    }

    int distance(int from, int to) {
        if (from == to) {
            return 10;
        }
        if (from >= cpuNumaNodes() || to >= cpuNumaNodes()) {
            return memoryOnlyDistance;
        }
        return from / numaPerSocket == to / numaPerSocket ? sameSocketDistance : crossSocketDistance;
    }

    private static FakeMachine plain(
            String name,
            int sockets,
            int cores,
            int threads,
            int numaPerSocket,
            int l3PerSocket,
            long memGiB,
            long huge2M,
            long huge1G,
            int same,
            int cross) {
        return new FakeMachine(
                name,
                sockets,
                cores,
                threads,
                numaPerSocket,
                l3PerSocket,
                memGiB * GIB_IN_KIB,
                huge2M,
                huge1G,
                same,
                cross,
                CpuSet.empty(),
                0,
                0,
                0);
    }

    /** Single-socket laptop, 4 cores / 8 threads, one NUMA node. */
    public static final FakeMachine LAPTOP = plain("laptop-1s-4c8t", 1, 4, 2, 1, 1, 16, 0, 0, 10, 10);

    /** Two-socket Intel with HT: 2 x 32 cores, 128 CPUs, siblings N and N+64. */
    public static final FakeMachine INTEL_2S_HT = plain("intel-2s-ht", 2, 32, 2, 1, 1, 192, 512, 8, 10, 21);

    /** Two-socket Intel with sub-NUMA clustering: 2 x 24 cores, 4 NUMA nodes, L3 shared per socket. */
    public static final FakeMachine INTEL_2S_SNC2 = plain("intel-2s-snc2", 2, 24, 2, 2, 1, 96, 256, 4, 11, 21);

    /** AMD EPYC two sockets, NPS4: 2 x 64 cores, 256 CPUs, 8 NUMA nodes, 8 L3 groups per socket. */
    public static final FakeMachine EPYC_2S_NPS4 = plain("amd-epyc-2s-nps4", 2, 64, 2, 4, 8, 64, 1024, 4, 12, 32);

    /** One socket with a CXL memory expander as a memory-only NUMA node. */
    public static final FakeMachine CXL = new FakeMachine(
            "cxl-1s-memory-only",
            1,
            8,
            2,
            1,
            1,
            32 * GIB_IN_KIB,
            0,
            0,
            10,
            10,
            CpuSet.empty(),
            1,
            128 * GIB_IN_KIB,
            20);

    /** Two sockets with offline CPUs: two whole cores and one lone thread offline on socket 1. */
    public static final FakeMachine OFFLINE = new FakeMachine(
            "offline-2s-ht", 2, 8, 2, 1, 1, 32 * GIB_IN_KIB, 0, 0, 10, 21, CpuSet.parse("14-15,29-31"), 0, 0, 0);

    /** Benchmark machine: 2 sockets x 96 cores, 384 CPUs, 8 NUMA nodes, 12 L3 groups per socket. */
    public static final FakeMachine BENCH_384 = plain("bench-2s-8numa-384", 2, 96, 2, 4, 12, 96, 0, 0, 12, 32);

    public static final List<FakeMachine> ALL =
            List.of(LAPTOP, INTEL_2S_HT, INTEL_2S_SNC2, EPYC_2S_NPS4, CXL, OFFLINE, BENCH_384);
}
