package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU arithmetic of an in-place resize, for a pod budget and for a container's own CPUs alike: more CPUs are taken
 * beside the held ones (on their NUMA nodes; only there under {@code single-numa-node} and {@code restricted}, then
 * elsewhere), as the CPU manager takes CPUs (whole cores first); fewer are given back keeping whole the cores held
 * whole, the highest first.
 */
final class ResizeCpus {

    private static final String OWNER_SUFFIX = "#resize";

    /** A resize the held CPUs cannot take in place; the pod keeps what it holds. */
    static final class Refused extends Exception {
        private final transient ResizeResult.Infeasible result;

        /** @param held what the pod or container keeps (its CPUs, or the pool it runs on), named at the message's end */
        Refused(Pod pod, RejectionReason reason, String message, Object held) {
            super(message + "; it keeps " + held, null, false, false);
            this.result = new ResizeResult.Infeasible(pod.ref(), reason, getMessage());
        }

        ResizeResult.Infeasible result() {
            return result;
        }
    }

    private final Managers m;

    ResizeCpus(Managers m) {
        this.m = m;
    }

    /** Whether growth must stay on the held CPUs' NUMA nodes. */
    boolean strict() {
        TopologyPolicyName policy = m.topology().name();
        return policy == TopologyPolicyName.SINGLE_NUMA_NODE || policy == TopologyPolicyName.RESTRICTED;
    }

    /**
     * {@code extra} free CPUs of {@code state} to add to ones held on NUMA nodes {@code nodes}: there first, then (not
     * under a strict policy) anywhere.
     *
     * @param what the change, for messages ("pod ns/p budget: cpu 2 → 3")
     * @param held what the pod or container keeps, for messages
     */
    CpuSet grow(NodeState state, Pod resized, CpuSet nodes, int extra, String what, CpuSet held) throws Refused {
        CpuSet free = m.cpu().assignable(new CpuState(state.sharedPool(), state.cpuOwners()));
        CpuSet near = free.intersection(m.topo().cpusInNumaNodes(nodes));
        if (strict() && near.size() < extra) {
            throw new Refused(
                    resized,
                    RejectionReason.TOPOLOGY_AFFINITY_ERROR,
                    what + ": " + extra + " more CPUs on NUMA node(s) " + nodes + " under "
                            + m.topology().name().configName() + ", " + near.size() + " free there ("
                            + free.size() + " on the node)",
                    held);
        }
        if (free.size() < extra) {
            throw new Refused(
                    resized,
                    RejectionReason.UNEXPECTED_ADMISSION_ERROR,
                    what + ": " + extra + " more CPUs, " + free.size() + " free on the node",
                    held);
        }
        try {
            CpuSet added = take(resized, near, Math.min(extra, near.size()));
            return added.size() < extra
                    ? added.union(take(resized, free.difference(near), extra - added.size()))
                    : added;
        } catch (CpuAllocationException e) {
            RejectionReason reason = RejectionReason.SMT_ALIGNMENT_ERROR.wire().equals(e.reason())
                    ? RejectionReason.SMT_ALIGNMENT_ERROR
                    : RejectionReason.UNEXPECTED_ADMISSION_ERROR;
            throw new Refused(resized, reason, what + ": " + e.getMessage(), held);
        }
    }

    /** {@code n} CPUs of {@code from}, as the CPU manager takes them (whole cores and close CPUs first). */
    private CpuSet take(Pod resized, CpuSet from, int n) throws CpuAllocationException {
        if (n == 0) {
            return CpuSet.empty();
        }
        String owner = resized.ref().uid() + OWNER_SUFFIX;
        return m.cpu()
                .allocate(CpuState.of(from), owner, n, CpuSet.empty(), CpuSet.empty())
                .cpus();
    }

    /**
     * {@code n} CPUs of {@code pool} to give back, keeping whole the cores it holds whole: first CPUs whose core it
     * holds only in part, then whole cores, then single CPUs of whole cores, each the highest first (so a growth
     * undone gives back what it took). Under full-pcpus-only whole cores only (refused when {@code n} cannot be made
     * of them).
     */
    CpuSet giveBack(Pod resized, CpuSet pool, int n, String what, CpuSet held) throws Refused {
        List<CpuSet> whole = new ArrayList<>();
        CpuSet.Builder loose = CpuSet.builder();
        m.topo().coresOf(pool).forEach(core -> {
            CpuSet cpus = m.topo().cpusInCore(core);
            if (cpus.isSubsetOf(pool)) {
                whole.add(cpus);
            } else {
                loose.addAll(cpus.intersection(pool));
            }
        });
        whole.sort((a, b) -> Integer.compare(b.last(), a.last()));
        CpuSet.Builder out = CpuSet.builder();
        int left = n;
        if (!m.fullPcpusOnly()) {
            left = takeHighest(loose.build(), left, out);
        }
        for (CpuSet core : whole) {
            if (core.size() <= left) {
                out.addAll(core);
                left -= core.size();
            }
        }
        if (left > 0 && m.fullPcpusOnly()) {
            throw new Refused(
                    resized,
                    RejectionReason.SMT_ALIGNMENT_ERROR,
                    what + ": full-pcpus-only gives back whole cores of "
                            + m.topo().cpusPerCore() + " CPUs, and " + n + " is not a number of whole cores of "
                            + pool,
                    held);
        }
        takeHighest(pool.difference(out.build()), left, out);
        return out.build();
    }

    /** Adds up to {@code n} CPUs of {@code from} to {@code out}, the highest first; returns how many are still due. */
    private static int takeHighest(CpuSet from, int n, CpuSet.Builder out) {
        int[] cpus = from.toArray();
        int left = n;
        for (int i = cpus.length - 1; i >= 0 && left > 0; i--, left--) {
            out.add(cpus[i]);
        }
        return left;
    }

    /** The NUMA nodes of held CPUs, for growing beside them. */
    CpuSet nodesOf(CpuSet cpus) {
        return m.topo().numaNodesOf(cpus);
    }
}
