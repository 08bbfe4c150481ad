package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Mutable working state of one {@code takeByTopology} call: the CPUs still free, the CPUs taken so
 * far and how many are still needed. Lives for one call only.
 *
 * <p>The orderings reproduce the kubelet's: at every level the element with the fewest free CPUs
 * comes first (so partly used elements fill before empty ones), ties broken by ascending id; the
 * first level is NUMA nodes when sockets are at least as many as NUMA nodes, else sockets. The
 * orderings may list an element twice when it straddles two parents (a NUMA node spanning sockets);
 * that too is kept as the kubelet does it.
 */
final class CpuAccumulator {

    private final CpuTopology topo;
    private final boolean numaFirst;
    private final CpuSortingStrategy strategy;
    private CpuSet free;
    private CpuSet result = CpuSet.empty();
    private int needed;

    CpuAccumulator(CpuTopology topo, CpuSet available, int numCpus, CpuSortingStrategy strategy) {
        this.topo = topo;
        this.free = available.intersection(topo.onlineCpus());
        this.needed = numCpus;
        this.strategy = strategy;
        this.numaFirst = topo.numSockets() >= topo.numNumaNodes();
    }

    CpuTopology topology() {
        return topo;
    }

    CpuSet free() {
        return free;
    }

    CpuSet result() {
        return result;
    }

    int needed() {
        return needed;
    }

    boolean isSatisfied() {
        return needed < 1;
    }

    boolean isFailed() {
        return needed > free.size();
    }

    boolean needsAtLeast(int n) {
        return needed >= n;
    }

    /**
     * Claims a whole element. Upstream claims every CPU of the element as the machine has it; on an
     * asymmetric machine (offline threads or cores) its "is the element free" tests compare against
     * machine-wide averages and can pass for an element with busy CPUs, which would hand a CPU to two
     * containers. Only the element's free CPUs are claimed here: identical on symmetric machines, and
     * never a double allocation elsewhere.
     */
    void takeWhole(CpuSet elementCpus) {
        take(elementCpus.intersection(free));
    }

    /** Claims CPUs; the count drops by the size of {@code cpus} as given, as upstream does. */
    void take(CpuSet cpus) {
        result = result.union(cpus);
        free = free.difference(result);
        needed -= cpus.size();
    }

    // ---- orderings

    /** Sorts ids by free CPUs inside each (ascending), then by id. */
    private int[] sortByFree(CpuSet ids, IntFunction<CpuSet> cpusOf) {
        int[] idArray = ids.toArray();
        long[] keys = new long[idArray.length];
        for (int i = 0; i < idArray.length; i++) {
            int freeCount = free.intersectionSize(cpusOf.apply(idArray[i]));
            keys[i] = ((long) freeCount << 32) | idArray[i];
        }
        Arrays.sort(keys);
        for (int i = 0; i < keys.length; i++) {
            idArray[i] = (int) keys[i];
        }
        return idArray;
    }

    /** A growable int list, so that orderings are built without copying per element. */
    private static final class Ints {
        private int[] a = new int[16];
        private int n;

        void addAll(int[] xs) {
            if (n + xs.length > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, n + xs.length));
            }
            System.arraycopy(xs, 0, a, n, xs.length);
            n += xs.length;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }

    int[] sortAvailableNumaNodes() {
        if (numaFirst) {
            return sortByFree(topo.numaNodesOf(free), topo::cpusInNumaNode);
        }
        Ints out = new Ints();
        for (int socket : sortAvailableSockets()) {
            CpuSet nodes = topo.numaNodesOf(free.intersection(topo.cpusInSocket(socket)));
            out.addAll(sortByFree(nodes, topo::cpusInNumaNode));
        }
        return out.toArray();
    }

    int[] sortAvailableSockets() {
        if (!numaFirst) {
            return sortByFree(topo.socketsOf(free), topo::cpusInSocket);
        }
        Ints out = new Ints();
        for (int node : sortAvailableNumaNodes()) {
            CpuSet sockets = topo.socketsOf(free.intersection(topo.cpusInNumaNode(node)));
            out.addAll(sortByFree(sockets, topo::cpusInSocket));
        }
        return out.toArray();
    }

    int[] sortAvailableCores() {
        Ints out = new Ints();
        if (numaFirst) {
            for (int socket : sortAvailableSockets()) {
                CpuSet cores = topo.coresOf(free.intersection(topo.cpusInSocket(socket)));
                out.addAll(sortByFree(cores, topo::cpusInCore));
            }
        } else {
            for (int node : sortAvailableNumaNodes()) {
                CpuSet cores = topo.coresOf(free.intersection(topo.cpusInNumaNode(node)));
                out.addAll(sortByFree(cores, topo::cpusInCore));
            }
        }
        return out.toArray();
    }

    int[] sortAvailableUncoreCaches() {
        Ints out = new Ints();
        for (int node : sortAvailableNumaNodes()) {
            CpuSet caches = topo.uncoreCachesOf(free.intersection(topo.cpusInNumaNode(node)));
            out.addAll(sortByFree(caches, topo::cpusInUncoreCache));
        }
        return out.toArray();
    }

    /** Free CPUs core by core in core order, ascending ids within a core. */
    int[] sortAvailableCpusPacked() {
        Ints out = new Ints();
        for (int core : sortAvailableCores()) {
            out.addAll(free.intersection(topo.cpusInCore(core)).toArray());
        }
        return out.toArray();
    }

    /** Free CPUs socket by socket in socket order, ascending ids within a socket. */
    int[] sortAvailableCpusSpread() {
        Ints out = new Ints();
        for (int socket : sortAvailableSockets()) {
            out.addAll(free.intersection(topo.cpusInSocket(socket)).toArray());
        }
        return out.toArray();
    }

    int[] sortAvailableCpus() {
        return strategy == CpuSortingStrategy.PACKED ? sortAvailableCpusPacked() : sortAvailableCpusSpread();
    }

    // ---- whole-element takes: the list of free elements is fixed before taking, as upstream does

    private static int[] filter(int[] ids, IntPredicate keep) {
        int[] out = new int[ids.length];
        int n = 0;
        for (int id : ids) {
            if (keep.test(id)) {
                out[n++] = id;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private boolean isNumaNodeFree(int node) {
        return free.intersectionSize(topo.cpusInNumaNode(node))
                == topo.cpusInNumaNode(node).size();
    }

    private boolean isSocketFree(int socket) {
        return free.intersectionSize(topo.cpusInSocket(socket)) == topo.cpusPerSocket();
    }

    private boolean isUncoreCacheFree(int uncore) {
        return free.intersectionSize(topo.cpusInUncoreCache(uncore))
                == topo.cpusInUncoreCache(uncore).size();
    }

    private boolean isCoreFree(int core) {
        return free.intersectionSize(topo.cpusInCore(core)) == topo.cpusPerCore();
    }

    void takeFullNumaNodes() {
        for (int node : filter(sortAvailableNumaNodes(), this::isNumaNodeFree)) {
            CpuSet cpus = topo.cpusInNumaNode(node);
            if (needsAtLeast(cpus.size())) {
                takeWhole(cpus);
            }
        }
    }

    void takeFullSockets() {
        for (int socket : filter(sortAvailableSockets(), this::isSocketFree)) {
            CpuSet cpus = topo.cpusInSocket(socket);
            if (needsAtLeast(cpus.size())) {
                takeWhole(cpus);
            }
        }
    }

    void takeFullFirstLevel() {
        if (numaFirst) {
            takeFullNumaNodes();
        } else {
            takeFullSockets();
        }
    }

    void takeFullSecondLevel() {
        if (numaFirst) {
            takeFullSockets();
        } else {
            takeFullNumaNodes();
        }
    }

    private void takeFullUncoreCaches() {
        for (int uncore : filter(sortAvailableUncoreCaches(), this::isUncoreCacheFree)) {
            CpuSet cpus = topo.cpusInUncoreCache(uncore);
            if (needsAtLeast(cpus.size())) {
                takeWhole(cpus);
            }
        }
    }

    /**
     * Takes the rest from one L3 group when whole free cores there (the last one possibly split for an
     * odd count on SMT machines) give exactly what is still needed; takes nothing otherwise.
     */
    private void takePartialUncoreCache(int uncore) {
        int perCore = topo.cpusPerCore();
        int coresNeeded = (needed + perCore - 1) / perCore;
        CpuSet coresHere = topo.coresOf(free.intersection(topo.cpusInUncoreCache(uncore)));
        CpuSet cores = coresHere.lowest(coresNeeded);
        CpuSet cpus = free.intersection(topo.cpusInCores(cores));
        if (needed % 2 != 0 && perCore > 1 && cpus.size() > needed) {
            cpus = cpus.lowest(cpus.size() - 1);
        }
        if (needed == cpus.size()) {
            take(cpus);
        }
    }

    void takeUncoreCaches() {
        int perUncore = topo.cpusPerUncoreCache();
        for (int uncore : sortAvailableUncoreCaches()) {
            if (needsAtLeast(perUncore)) {
                takeFullUncoreCaches();
            }
            if (isSatisfied()) {
                return;
            }
            takePartialUncoreCache(uncore);
            if (isSatisfied()) {
                return;
            }
        }
    }

    void takeFullCores() {
        for (int core : filter(sortAvailableCores(), this::isCoreFree)) {
            CpuSet cpus = topo.cpusInCore(core);
            if (needsAtLeast(cpus.size())) {
                takeWhole(cpus);
            }
        }
    }

    void takeRemainingCpus() {
        for (int cpu : sortAvailableCpus()) {
            take(CpuSet.of(cpu));
            if (isSatisfied()) {
                return;
            }
        }
    }
}
