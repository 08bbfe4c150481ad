package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The kubelet's topology-aware CPU selection ({@code takeByTopologyNUMAPacked} and
 * {@code takeByTopologyNUMADistributed}), rewritten from its documented behaviour.
 *
 * <p>Packed: whole first-level elements (NUMA nodes or sockets), whole second-level elements,
 * optionally L3 groups, whole cores (not when spreading), then single threads. Distributed: the
 * smallest set of NUMA nodes across which the request splits evenly in groups of {@code groupSize}
 * CPUs, chosen by the lowest standard deviation of free CPUs left per node; falls back to packed.
 */
public final class TakeByTopology {

    private TakeByTopology() {}

    /** Failure text when the request exceeds the available CPUs, worded as upstream. */
    static String notEnough(int requested, int available) {
        return "not enough cpus available to satisfy request: requested=" + requested + ", available=" + available;
    }

    public static CpuSet packed(
            CpuTopology topo, CpuSet available, int numCpus, CpuSortingStrategy strategy, boolean alignByUncoreCache)
            throws CpuAllocationException {
        CpuAccumulator acc = new CpuAccumulator(topo, available, numCpus, strategy);
        if (acc.isSatisfied()) {
            return acc.result();
        }
        if (acc.isFailed()) {
            throw new CpuAllocationException(
                    CpuAllocationException.UNEXPECTED_ADMISSION_ERROR, notEnough(numCpus, available.size()));
        }
        acc.takeFullFirstLevel();
        if (acc.isSatisfied()) {
            return acc.result();
        }
        acc.takeFullSecondLevel();
        if (acc.isSatisfied()) {
            return acc.result();
        }
        if (alignByUncoreCache) {
            acc.takeUncoreCaches();
            if (acc.isSatisfied()) {
                return acc.result();
            }
        }
        if (strategy != CpuSortingStrategy.SPREAD) {
            acc.takeFullCores();
            if (acc.isSatisfied()) {
                return acc.result();
            }
        }
        acc.takeRemainingCpus();
        if (acc.isSatisfied()) {
            return acc.result();
        }
        throw new CpuAllocationException(CpuAllocationException.UNEXPECTED_ADMISSION_ERROR, "failed to allocate cpus");
    }

    public static CpuSet distributed(
            CpuTopology topo,
            CpuSet available,
            int numCpus,
            int groupSize,
            CpuSortingStrategy strategy,
            boolean alignBySocket)
            throws CpuAllocationException {
        if (numCpus % groupSize != 0) {
            return packed(topo, available, numCpus, strategy, false);
        }
        CpuAccumulator acc = new CpuAccumulator(topo, available, numCpus, strategy);
        if (acc.isSatisfied()) {
            return acc.result();
        }
        if (acc.isFailed()) {
            throw new CpuAllocationException(
                    CpuAllocationException.UNEXPECTED_ADMISSION_ERROR, notEnough(numCpus, available.size()));
        }
        int[] numas = acc.sortAvailableNumaNodes();
        int[] range = numaNodesNeeded(acc, groupSize);
        for (int k = range[0]; k <= range[1]; k++) {
            ComboSearch search = new ComboSearch(acc, numas, numCpus, groupSize, alignBySocket);
            Combinations.forEach(numas, k, search::consider);
            if (search.bestCombo == null) {
                continue;
            }
            // Read only now: the kept views may have been overwritten by later subsets (see Combinations).
            int[] best = search.bestCombo.toArray();
            int[] bestRemainder = search.bestRemainder == null ? new int[0] : search.bestRemainder.toArray();
            int distribution = (numCpus / best.length / groupSize) * groupSize;
            for (int node : best) {
                int availableInNode = acc.free().intersectionSize(topo.cpusInNumaNode(node)) / groupSize * groupSize;
                distribution = Math.min(distribution, availableInNode);
            }
            for (int node : best) {
                acc.take(quietPacked(topo, acc.free().intersection(topo.cpusInNumaNode(node)), distribution, strategy));
            }
            int remainder = numCpus - distribution * best.length;
            while (remainder > 0) {
                int before = remainder;
                for (int node : bestRemainder) {
                    if (remainder == 0) {
                        break;
                    }
                    CpuSet freeInNode = acc.free().intersection(topo.cpusInNumaNode(node));
                    if (freeInNode.size() < groupSize) {
                        continue;
                    }
                    acc.take(quietPacked(topo, freeInNode, groupSize, strategy));
                    remainder -= groupSize;
                }
                if (remainder == before) {
                    // Upstream would spin here forever; the search rules this out, but fail loudly if not.
                    break;
                }
            }
            if (acc.needed() != 0) {
                throw new CpuAllocationException(
                        CpuAllocationException.UNEXPECTED_ADMISSION_ERROR,
                        "accounting error, " + (acc.needed() > 0 ? "not enough" : "too many")
                                + " CPUs allocated, remaining: " + acc.needed());
            }
            return acc.result();
        }
        return packed(topo, available, numCpus, strategy, false);
    }

    /** Upstream ignores errors of the per-node packed calls; an empty result then trips the accounting check. */
    private static CpuSet quietPacked(CpuTopology topo, CpuSet available, int n, CpuSortingStrategy strategy) {
        try {
            return packed(topo, available, n, strategy, false);
        } catch (CpuAllocationException e) {
            return CpuSet.empty();
        }
    }

    /** {min, max} NUMA nodes that could hold the request, counted in groups. */
    static int[] numaNodesNeeded(CpuAccumulator acc, int groupSize) {
        CpuTopology topo = acc.topology();
        int numNuma = topo.numNumaNodes();
        int numNumaAvailable = topo.numaNodesOf(acc.free()).size();
        int numCpus = topo.numCpus();
        int groups = (numCpus - 1) / groupSize + 1;
        int groupsPerNuma = (groups - 1) / numNuma + 1;
        int groupsNeeded = (acc.needed() - 1) / groupSize + 1;
        int min = (groupsNeeded - 1) / groupsPerNuma + 1;
        int max = Math.min(groupsNeeded, numNumaAvailable);
        return new int[] {min, max};
    }

    /** The balance score: population standard deviation, mean and result rounded to 3 decimals. */
    static double standardDeviation(int[] xs) {
        double sum = 0;
        for (int x : xs) {
            sum += x;
        }
        double mean = Math.round(sum / xs.length * 1000) / 1000.0;
        double sq = 0;
        for (int x : xs) {
            sq += (x - mean) * (x - mean);
        }
        return Math.round(Math.sqrt(sq / xs.length) * 1000) / 1000.0;
    }

    /** Scores every combination of NUMA nodes of one size and keeps the best. */
    private static final class ComboSearch {
        private final CpuAccumulator acc;
        private final int[] numas;
        private final int numCpus;
        private final int groupSize;
        private final boolean alignBySocket;
        double bestBalance = Double.MAX_VALUE;
        Combinations.Slice bestCombo;
        Combinations.Slice bestRemainder;
        boolean bestInOneSocket;

        ComboSearch(CpuAccumulator acc, int[] numas, int numCpus, int groupSize, boolean alignBySocket) {
            this.acc = acc;
            this.numas = numas;
            this.numCpus = numCpus;
            this.groupSize = groupSize;
            this.alignBySocket = alignBySocket;
        }

        private int freeIn(int node) {
            return acc.free().intersectionSize(acc.topology().cpusInNumaNode(node));
        }

        boolean consider(Combinations.Slice comboView) {
            if (bestBalance == 0 && (!alignBySocket || bestInOneSocket)) {
                return false;
            }
            int[] combo = comboView.toArray();
            int total = 0;
            int groups = 0;
            for (int node : combo) {
                total += freeIn(node);
                groups += freeIn(node) / groupSize;
            }
            if (total < numCpus || groups * groupSize < numCpus) {
                return true;
            }
            int distribution = (numCpus / combo.length / groupSize) * groupSize;
            if (alignBySocket) {
                for (int node : combo) {
                    distribution = Math.min(distribution, freeIn(node) / groupSize * groupSize);
                }
            }
            for (int node : combo) {
                if (freeIn(node) < distribution) {
                    return true;
                }
            }
            Map<Integer, Integer> after = new HashMap<>();
            for (int node : numas) {
                after.put(node, freeIn(node));
            }
            for (int node : combo) {
                after.merge(node, -distribution, Integer::sum);
            }
            int remainder = numCpus - distribution * combo.length;
            int[] remainderCombo = Arrays.stream(combo)
                    .filter(node -> after.get(node) >= groupSize)
                    .toArray();
            double localBest = Double.MAX_VALUE;
            Combinations.Slice localRemainder = null;
            if (remainder == 0) {
                localBest = standardDeviation(values(after));
            }
            for (int k = remainderCombo.length; remainder > 0 && k >= 1; k--) {
                RemainderSearch rs = new RemainderSearch(after, remainder, groupSize, localBest, localRemainder);
                Combinations.forEach(remainderCombo, k, rs::consider);
                localBest = rs.best;
                localRemainder = rs.bestSubset;
            }
            boolean inOneSocket = alignBySocket && acc.topology().numaNodesInOneSocket(CpuSet.of(combo));
            boolean better = localBest < bestBalance;
            if (alignBySocket && inOneSocket != bestInOneSocket) {
                better = inOneSocket;
            }
            if (better) {
                bestBalance = localBest;
                bestRemainder = localRemainder;
                bestCombo = comboView;
                if (alignBySocket) {
                    bestInOneSocket = inOneSocket;
                }
            }
            return true;
        }
    }

    /** Picks the subset of nodes that takes the leftover groups with the best balance. */
    private static final class RemainderSearch {
        private final Map<Integer, Integer> after;
        private final int remainder;
        private final int groupSize;
        double best;
        Combinations.Slice bestSubset;

        RemainderSearch(
                Map<Integer, Integer> after, int remainder, int groupSize, double best, Combinations.Slice bestSubset) {
            this.after = after;
            this.remainder = remainder;
            this.groupSize = groupSize;
            this.best = best;
            this.bestSubset = bestSubset;
        }

        boolean consider(Combinations.Slice subsetView) {
            int[] subset = subsetView.toArray();
            Map<Integer, Integer> local = new HashMap<>(after);
            int availableGroups = 0;
            for (int node : subset) {
                availableGroups += local.get(node) / groupSize;
            }
            // Whole groups only: a raw CPU sum would accept subsets that can never place the remainder.
            if (availableGroups * groupSize < remainder) {
                return true;
            }
            int left = remainder;
            while (left > 0) {
                for (int node : subset) {
                    if (left == 0) {
                        break;
                    }
                    if (local.get(node) < groupSize) {
                        continue;
                    }
                    local.merge(node, -groupSize, Integer::sum);
                    left -= groupSize;
                }
            }
            double balance = standardDeviation(values(local));
            if (balance < best) {
                best = balance;
                bestSubset = subsetView;
            }
            return true;
        }
    }

    private static int[] values(Map<Integer, Integer> m) {
        return m.values().stream().mapToInt(Integer::intValue).toArray();
    }
}
