package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU manager's static policy: reservation, pools, exclusive allocation and release, and NUMA
 * hints. Pure: every operation takes a {@link CpuState} and returns a new one.
 *
 * <p>Pools: SHARED is the state's default set (all online CPUs at start; without
 * {@code strict-cpu-reservation} it includes the reserved CPUs); ASSIGNABLE is SHARED minus RESERVED;
 * EXCLUSIVE is the union of the assignments.
 */
public final class StaticPolicy {

    private final CpuTopology topo;
    private final StaticPolicyOptions options;
    private final CpuSet reserved;
    private final CpuSet reservedPhysical;
    private final int cpuGroupSize;

    private StaticPolicy(CpuTopology topo, StaticPolicyOptions options, CpuSet reserved) {
        this.topo = topo;
        this.options = options;
        this.reserved = reserved;
        this.reservedPhysical = topo.cpusInCores(topo.coresOf(reserved));
        this.cpuGroupSize = topo.cpusPerCore();
    }

    /**
     * @param topologyManagerPolicy the topology manager policy in force (some options depend on it)
     * @throws InvalidCpuPolicyException when options, machine and reservation do not fit together
     */
    public static StaticPolicy create(
            CpuTopology topo, StaticPolicyOptions options, ReservedCpus reservation, String topologyManagerPolicy) {
        options.validate(topo, topologyManagerPolicy);
        StaticPolicy unreserved = new StaticPolicy(topo, options, CpuSet.empty());
        CpuSet reserved;
        switch (reservation) {
            case ReservedCpus.Explicit e -> {
                CpuSet notOnline = e.cpus().difference(topo.onlineCpus());
                if (!notOnline.isEmpty()) {
                    throw new InvalidCpuPolicyException("reserved CPUs " + notOnline
                            + " are not online CPUs of this machine (online: " + topo.onlineCpus() + ")");
                }
                reserved = e.cpus();
            }
            case ReservedCpus.Count c -> {
                if (c.count() < 0 || c.count() > topo.numCpus()) {
                    throw new InvalidCpuPolicyException("reserved CPU count " + c.count()
                            + " is out of range: allowed 1.." + topo.numCpus() + " on this machine");
                }
                try {
                    reserved = unreserved.takeByTopology(topo.onlineCpus(), c.count());
                } catch (CpuAllocationException ex) {
                    throw new InvalidCpuPolicyException("unable to reserve " + c.count() + " CPUs: " + ex.getMessage());
                }
                if (reserved.size() != c.count()) {
                    throw new InvalidCpuPolicyException("unable to reserve the required amount of CPUs (size of "
                            + reserved + " did not equal " + c.count() + ")");
                }
            }
        }
        if (reserved.isEmpty()) {
            throw new InvalidCpuPolicyException("the static policy requires a non-empty CPU reservation: set reserved"
                    + " CPUs (a list such as \"0,1\") or a reserved CPU count of at least 1");
        }
        return new StaticPolicy(topo, options, reserved);
    }

    public CpuTopology topology() {
        return topo;
    }

    public StaticPolicyOptions options() {
        return options;
    }

    public CpuSet reserved() {
        return reserved;
    }

    /** The reserved CPUs widened to whole cores: {@code full-pcpus-only} never hands out their siblings. */
    public CpuSet reservedPhysical() {
        return reservedPhysical;
    }

    /** The state before any allocation. */
    public CpuState initialState() {
        CpuSet all = topo.onlineCpus();
        return CpuState.of(options.strictCpuReservation() ? all.difference(reserved) : all);
    }

    public CpuSet shared(CpuState s) {
        return s.defaultSet();
    }

    /** CPUs that can still become exclusive. */
    public CpuSet assignable(CpuState s) {
        return s.defaultSet().difference(reserved);
    }

    private CpuSet availablePhysical(CpuState s) {
        return s.defaultSet().difference(reservedPhysical);
    }

    /** The result of an allocation: the new state, the CPUs granted, and whether they share one L3. */
    public record Allocation(CpuState state, CpuSet cpus, boolean alignedToUncoreCache) {}

    /**
     * Gives {@code owner} {@code numCpus} exclusive CPUs.
     *
     * @param numaAffinity the NUMA nodes the topology manager chose, or empty for no preference; with
     *     {@code align-by-socket} the whole sockets of those nodes are tried first
     * @param reusable CPUs the owner may take even though they are not free (CPUs of a finished init
     *     container of the same pod)
     */
    public Allocation allocate(CpuState s, String owner, int numCpus, CpuSet numaAffinity, CpuSet reusable)
            throws CpuAllocationException {
        if (numCpus <= 0) {
            throw new IllegalArgumentException("requested CPU count must be positive, was " + numCpus);
        }
        var existing = s.assignment(owner);
        if (existing.isPresent()) {
            // Idempotent: a retried admission keeps the first answer.
            return new Allocation(s, existing.get(), topo.alignedToOneUncoreCache(existing.get()));
        }
        if (options.fullPcpusOnly()) {
            if (numCpus % cpuGroupSize != 0) {
                throw SmtAlignmentException.notMultipleOfCore(numCpus, cpuGroupSize);
            }
            int physical = availablePhysical(s).size();
            if (numCpus > physical) {
                throw SmtAlignmentException.notEnoughPhysicalCpus(numCpus, cpuGroupSize, physical);
            }
        }
        CpuSet allocatable = assignable(s).union(reusable);
        CpuSet result = CpuSet.empty();
        if (!numaAffinity.isEmpty()) {
            CpuSet aligned = alignedCpus(numaAffinity, allocatable);
            result = takeByTopology(aligned, Math.min(numCpus, aligned.size()));
        }
        result = result.union(takeByTopology(allocatable.difference(result), numCpus - result.size()));
        if (result.size() != numCpus || !result.isSubsetOf(allocatable)) {
            // Never hand out a CPU twice or the wrong count, whatever the algorithm did.
            throw new CpuAllocationException(
                    CpuAllocationException.UNEXPECTED_ADMISSION_ERROR,
                    "internal allocation error: picked " + result + " (" + result.size() + " CPUs) for a request of "
                            + numCpus + " from allocatable " + allocatable);
        }
        CpuState next = s.withAssignment(owner, result, s.defaultSet().difference(result));
        return new Allocation(next, result, topo.alignedToOneUncoreCache(result));
    }

    private CpuSet alignedCpus(CpuSet numaAffinity, CpuSet allocatable) {
        if (options.alignBySocket()) {
            return allocatable.intersection(topo.cpusInSockets(topo.socketsInNumaNodes(numaAffinity)));
        }
        return allocatable.intersection(topo.cpusInNumaNodes(numaAffinity));
    }

    /**
     * Returns {@code owner}'s CPUs to the shared pool, except CPUs another owner still holds (a pod's
     * containers can share reused CPUs) and, under {@code strict-cpu-reservation}, reserved CPUs.
     */
    public CpuState release(CpuState s, String owner) {
        var cpus = s.assignment(owner);
        if (cpus.isEmpty()) {
            return s;
        }
        CpuSet stillHeld = s.without(owner, s.defaultSet()).exclusive();
        CpuSet toRelease = cpus.get().difference(stillHeld);
        if (options.strictCpuReservation()) {
            toRelease = toRelease.difference(reserved);
        }
        return s.without(owner, s.defaultSet().union(toRelease));
    }

    /** Picks CPUs with the algorithm and options of this policy. */
    public CpuSet takeByTopology(CpuSet available, int numCpus) throws CpuAllocationException {
        CpuSortingStrategy strategy =
                options.distributeCpusAcrossCores() ? CpuSortingStrategy.SPREAD : CpuSortingStrategy.PACKED;
        if (options.distributeCpusAcrossNuma()) {
            int groupSize = options.fullPcpusOnly() ? cpuGroupSize : 1;
            return TakeByTopology.distributed(topo, available, numCpus, groupSize, strategy, options.alignBySocket());
        }
        return TakeByTopology.packed(topo, available, numCpus, strategy, options.preferAlignByUncoreCache());
    }

    /**
     * Every NUMA-node mask (by size, then lexicographically) whose free plus reusable CPUs cover the
     * request; the masks of minimal size measured on capacity are preferred (with
     * {@code align-by-socket}, also those spanning the minimal number of sockets).
     */
    public List<CpuHint> hints(CpuState s, int request, CpuSet reusable) {
        CpuSet available = assignable(s);
        int[] nodes = topo.numaNodeIds().toArray();
        int minAffinity = nodes.length;
        List<CpuSet> fitting = new ArrayList<>();
        for (int k = 1; k <= nodes.length; k++) {
            for (CpuSet mask : masksOfSize(nodes, k)) {
                if (topo.cpusInNumaNodes(mask).size() >= request && mask.size() < minAffinity) {
                    minAffinity = mask.size();
                }
                if (!topo.numaNodesOf(reusable).isSubsetOf(mask)) {
                    continue;
                }
                int matching = reusable.size() + available.intersectionSize(topo.cpusInNumaNodes(mask));
                if (matching >= request) {
                    fitting.add(mask);
                }
            }
        }
        List<CpuHint> hints = new ArrayList<>(fitting.size());
        for (CpuSet mask : fitting) {
            boolean preferred =
                    mask.size() == minAffinity || (options.alignBySocket() && socketAligned(mask, minAffinity));
            hints.add(new CpuHint(mask, preferred));
        }
        return hints;
    }

    private boolean socketAligned(CpuSet mask, int minAffinity) {
        int perSocket = topo.numNumaNodes() / topo.numSockets();
        if (perSocket == 0) {
            return false;
        }
        int minSockets = (minAffinity + perSocket - 1) / perSocket;
        return topo.socketsInNumaNodes(mask).size() == minSockets;
    }

    private static List<CpuSet> masksOfSize(int[] ids, int k) {
        List<CpuSet> out = new ArrayList<>();
        collect(ids, k, 0, new int[k], 0, out);
        return out;
    }

    private static void collect(int[] ids, int k, int start, int[] chosen, int depth, List<CpuSet> out) {
        if (depth == k) {
            out.add(CpuSet.of(chosen));
            return;
        }
        for (int i = start; i <= ids.length - (k - depth); i++) {
            chosen[depth] = ids[i];
            collect(ids, k, i + 1, chosen, depth + 1, out);
        }
    }
}
