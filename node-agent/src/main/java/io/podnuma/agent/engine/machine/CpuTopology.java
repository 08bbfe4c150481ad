package io.podnuma.agent.engine.machine;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The machine as plain data: online CPUs with their socket, die, NUMA node, core and L3 cache; the
 * offline CPUs; and every NUMA node with its memory, hugepages and distances.
 *
 * <p>Counts follow the kubelet's definitions (only online CPUs exist; a NUMA node without CPUs does
 * not count as a CPU NUMA node; {@code cpusPerCore} is online CPUs divided by physical cores), because
 * the allocator must give the kubelet's answers on the same machine.
 */
public final class CpuTopology {

    private final List<CpuInfo> cpus;
    private final CpuInfo[] byCpu;
    private final CpuSet online;
    private final CpuSet offline;
    private final List<NumaNode> numaNodes;
    private final CpuSet[] cpusBySocket;
    private final CpuSet[] cpusByNuma;
    private final CpuSet[] cpusByCore;
    private final CpuSet[] cpusByUncore;
    private final CpuSet socketIds;
    private final CpuSet cpuNumaIds;
    private final CpuSet coreIds;
    private final CpuSet uncoreIds;
    // Core id by CPU id (-1 where no online CPU): the allocator asks "which cores do these CPUs
    // touch" many times per call, so it must not go through objects.
    private final int[] coreOfCpu;

    /**
     * @param cpus the online CPUs, any order
     * @param offline CPUs present but offline (no topology is known for them)
     * @param numaNodes every NUMA node, memory-only ones included; an empty list means a machine
     *     without NUMA information, modelled as node 0 holding every CPU
     */
    public CpuTopology(List<CpuInfo> cpus, CpuSet offline, List<NumaNode> numaNodes) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("a machine needs at least one online CPU");
        }
        List<CpuInfo> sorted = new ArrayList<>(cpus);
        sorted.sort(Comparator.comparingInt(CpuInfo::cpu));
        this.cpus = List.copyOf(sorted);
        CpuSet.Builder onlineB = CpuSet.builder();
        int maxCpu = sorted.getLast().cpu();
        this.byCpu = new CpuInfo[maxCpu + 1];
        int maxSocket = 0, maxNuma = 0, maxUncore = 0;
        for (CpuInfo c : sorted) {
            if (byCpu[c.cpu()] != null) {
                throw new IllegalArgumentException("CPU " + c.cpu() + " is listed twice");
            }
            byCpu[c.cpu()] = c;
            onlineB.add(c.cpu());
            maxSocket = Math.max(maxSocket, c.socket());
            maxNuma = Math.max(maxNuma, c.numaNode());
            maxUncore = Math.max(maxUncore, c.uncoreCache());
        }
        this.online = onlineB.build();
        this.offline = offline;
        if (online.intersects(offline)) {
            throw new IllegalArgumentException(
                    "CPUs " + online.intersection(offline) + " are listed both online and offline");
        }
        this.cpusBySocket = group(sorted, maxSocket, CpuInfo::socket);
        this.cpusByNuma = group(sorted, maxNuma, CpuInfo::numaNode);
        this.cpusByCore = group(sorted, maxCpu, CpuInfo::core);
        this.cpusByUncore = group(sorted, maxUncore, CpuInfo::uncoreCache);
        this.socketIds = idsOf(cpusBySocket);
        this.cpuNumaIds = idsOf(cpusByNuma);
        this.coreIds = idsOf(cpusByCore);
        this.uncoreIds = idsOf(cpusByUncore);
        this.coreOfCpu = idArray(maxCpu, CpuInfo::core);
        List<NumaNode> nodes = new ArrayList<>(numaNodes);
        nodes.sort(Comparator.comparingInt(NumaNode::id));
        this.numaNodes = List.copyOf(nodes);
        validateNodes();
    }

    private interface IdOf {
        int id(CpuInfo c);
    }

    private static CpuSet[] group(List<CpuInfo> cpus, int maxId, IdOf idOf) {
        CpuSet.Builder[] builders = new CpuSet.Builder[maxId + 1];
        for (CpuInfo c : cpus) {
            int id = idOf.id(c);
            if (builders[id] == null) {
                builders[id] = CpuSet.builder();
            }
            builders[id].add(c.cpu());
        }
        CpuSet[] out = new CpuSet[maxId + 1];
        for (int i = 0; i <= maxId; i++) {
            out[i] = builders[i] == null ? CpuSet.empty() : builders[i].build();
        }
        return out;
    }

    private int[] idArray(int maxCpu, IdOf idOf) {
        int[] out = new int[maxCpu + 1];
        java.util.Arrays.fill(out, -1);
        for (CpuInfo c : cpus) {
            out[c.cpu()] = idOf.id(c);
        }
        return out;
    }

    private static CpuSet idsOf(CpuSet[] groups) {
        CpuSet.Builder b = CpuSet.builder();
        for (int i = 0; i < groups.length; i++) {
            if (!groups[i].isEmpty()) {
                b.add(i);
            }
        }
        return b.build();
    }

    private void validateNodes() {
        for (NumaNode n : numaNodes) {
            CpuSet expected = numaNodeCpus(n.id());
            if (!n.cpus().equals(expected)) {
                throw new IllegalArgumentException("NUMA node " + n.id() + " lists CPUs " + n.cpus()
                        + " but the CPUs placed on it are " + expected);
            }
            if (!n.distances().isEmpty() && n.distances().size() != numaNodes.size()) {
                throw new IllegalArgumentException("NUMA node " + n.id() + " has "
                        + n.distances().size() + " distances but the machine has " + numaNodes.size() + " nodes");
            }
        }
        if (!numaNodes.isEmpty()) {
            for (int id = cpuNumaIds.nextId(0); id >= 0; id = cpuNumaIds.nextId(id + 1)) {
                if (numaNode(id).isEmpty()) {
                    throw new IllegalArgumentException("CPUs " + cpusByNuma[id] + " sit on NUMA node " + id
                            + " which is not among the machine's nodes");
                }
            }
        }
    }

    private CpuSet numaNodeCpus(int id) {
        return id < cpusByNuma.length ? cpusByNuma[id] : CpuSet.empty();
    }

    private static CpuSet at(CpuSet[] groups, int id) {
        return id >= 0 && id < groups.length ? groups[id] : CpuSet.empty();
    }

    // ---- the machine as a whole

    public List<CpuInfo> cpus() {
        return cpus;
    }

    public CpuSet onlineCpus() {
        return online;
    }

    public CpuSet offlineCpus() {
        return offline;
    }

    /** Every NUMA node, memory-only ones included, by ascending id. */
    public List<NumaNode> numaNodes() {
        return numaNodes;
    }

    public Optional<NumaNode> numaNode(int id) {
        for (NumaNode n : numaNodes) {
            if (n.id() == id) {
                return Optional.of(n);
            }
        }
        return Optional.empty();
    }

    /** Ids of the NUMA nodes without CPUs. */
    public CpuSet memoryOnlyNumaNodeIds() {
        CpuSet.Builder b = CpuSet.builder();
        numaNodes.stream().filter(NumaNode::memoryOnly).forEach(n -> b.add(n.id()));
        return b.build();
    }

    /**
     * Distance between two NUMA nodes as the kernel reports it (10 = local), or -1 when unknown.
     */
    public int distance(int from, int to) {
        Optional<NumaNode> n = numaNode(from);
        if (n.isEmpty() || n.get().distances().isEmpty()) {
            return -1;
        }
        int index = 0;
        for (NumaNode other : numaNodes) {
            if (other.id() == to) {
                return n.get().distances().get(index);
            }
            index++;
        }
        return -1;
    }

    public CpuInfo info(int cpu) {
        CpuInfo c = cpu >= 0 && cpu < byCpu.length ? byCpu[cpu] : null;
        if (c == null) {
            throw new IllegalArgumentException(
                    "CPU " + cpu + " is not an online CPU of this machine (online: " + online + ")");
        }
        return c;
    }

    // ---- counts, with the kubelet's definitions

    public int numCpus() {
        return online.size();
    }

    public int numSockets() {
        return socketIds.size();
    }

    /** NUMA nodes that hold at least one online CPU. */
    public int numNumaNodes() {
        return cpuNumaIds.size();
    }

    /** Physical cores. */
    public int numCores() {
        return coreIds.size();
    }

    public int numUncoreCaches() {
        return uncoreIds.size();
    }

    public int cpusPerCore() {
        return numCores() == 0 ? 0 : numCpus() / numCores();
    }

    public int cpusPerSocket() {
        return numSockets() == 0 ? 0 : numCpus() / numSockets();
    }

    public int cpusPerUncoreCache() {
        return numUncoreCaches() == 0 ? 0 : numCpus() / numUncoreCaches();
    }

    // ---- ids of each level

    public CpuSet socketIds() {
        return socketIds;
    }

    /** Ids of NUMA nodes with CPUs. */
    public CpuSet numaNodeIds() {
        return cpuNumaIds;
    }

    public CpuSet coreIds() {
        return coreIds;
    }

    public CpuSet uncoreCacheIds() {
        return uncoreIds;
    }

    /** Dies of one socket. */
    public CpuSet dieIds(int socket) {
        CpuSet.Builder b = CpuSet.builder();
        cpusInSocket(socket).forEach(c -> b.add(byCpu[c].die()));
        return b.build();
    }

    // ---- CPUs of one element

    public CpuSet cpusInSocket(int socket) {
        return at(cpusBySocket, socket);
    }

    public CpuSet cpusInNumaNode(int node) {
        return at(cpusByNuma, node);
    }

    public CpuSet cpusInCore(int core) {
        return at(cpusByCore, core);
    }

    public CpuSet cpusInUncoreCache(int uncore) {
        return at(cpusByUncore, uncore);
    }

    public CpuSet cpusInNumaNodes(CpuSet nodes) {
        return unionOf(cpusByNuma, nodes);
    }

    public CpuSet cpusInSockets(CpuSet sockets) {
        return unionOf(cpusBySocket, sockets);
    }

    public CpuSet cpusInCores(CpuSet cores) {
        return unionOf(cpusByCore, cores);
    }

    private static CpuSet unionOf(CpuSet[] groups, CpuSet ids) {
        CpuSet.Builder b = CpuSet.builder();
        ids.forEach(id -> b.addAll(at(groups, id)));
        return b.build();
    }

    // ---- elements touched by a set of CPUs

    public CpuSet socketsOf(CpuSet cpus) {
        return groupsTouched(cpus, socketIds, cpusBySocket);
    }

    public CpuSet numaNodesOf(CpuSet cpus) {
        return groupsTouched(cpus, cpuNumaIds, cpusByNuma);
    }

    public CpuSet coresOf(CpuSet cpus) {
        return idsTouched(cpus, coreOfCpu, cpusByCore.length);
    }

    public CpuSet uncoreCachesOf(CpuSet cpus) {
        return groupsTouched(cpus, uncoreIds, cpusByUncore);
    }

    /** For levels with few elements: one word-parallel intersection test per element. */
    private static CpuSet groupsTouched(CpuSet cpus, CpuSet ids, CpuSet[] groups) {
        long[] bits = new long[(groups.length >>> 6) + 1];
        for (int id = ids.nextId(0); id >= 0; id = ids.nextId(id + 1)) {
            if (groups[id].intersects(cpus)) {
                bits[id >>> 6] |= 1L << id;
            }
        }
        return CpuSet.fromWords(bits);
    }

    private static CpuSet idsTouched(CpuSet cpus, int[] idOfCpu, int idBound) {
        long[] bits = new long[(idBound >>> 6) + 1];
        for (int c = cpus.nextId(0); c >= 0 && c < idOfCpu.length; c = cpus.nextId(c + 1)) {
            int id = idOfCpu[c];
            if (id >= 0) {
                bits[id >>> 6] |= 1L << id;
            }
        }
        return CpuSet.fromWords(bits);
    }

    /** Sockets holding CPUs of the given NUMA nodes. */
    public CpuSet socketsInNumaNodes(CpuSet nodes) {
        return socketsOf(cpusInNumaNodes(nodes));
    }

    /** NUMA nodes holding CPUs of the given sockets. */
    public CpuSet numaNodesInSockets(CpuSet sockets) {
        return numaNodesOf(cpusInSockets(sockets));
    }

    /** True when every given NUMA node sits in one socket. */
    public boolean numaNodesInOneSocket(CpuSet nodes) {
        return socketsInNumaNodes(nodes).size() <= 1;
    }

    /** True when every CPU of the set shares one L3 cache. */
    public boolean alignedToOneUncoreCache(CpuSet cpus) {
        return !cpus.isEmpty() && uncoreCachesOf(cpus).size() == 1;
    }
}
