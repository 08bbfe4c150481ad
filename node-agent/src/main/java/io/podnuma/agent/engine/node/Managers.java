package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryAllocationException;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.node.manager.CpuManager;
import io.podnuma.agent.engine.node.manager.MemoryManager;
import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The three managers of one node and the glue between them: hint collection, merge, and allocation calls
 * whose failures become rejections with the upstream reason.
 */
record Managers(CpuTopology topo, CpuManager cpu, MemoryManager memory, TopologyPolicy topology) {

    boolean pinsCpus() {
        return cpu.pinsCpus();
    }

    boolean pinsMemory() {
        return memory.pinsMemory();
    }

    /**
     * Merges the CPU and memory hints for a request and applies the topology policy.
     *
     * @param what names the pod or container in the rejection message
     */
    TopologyHint admit(
            String what,
            CpuState cpuState,
            int cpus,
            CpuSet reusable,
            MemoryState memState,
            Map<MemoryResource, Long> mem) {
        List<Map<String, List<TopologyHint>>> providers = new ArrayList<>(2);
        if (cpus > 0) {
            cpu.hints(cpuState, cpus, reusable).ifPresent(hints -> providers.add(Map.of("cpu", hints)));
        }
        if (!mem.isEmpty()) {
            try {
                memory.hints(memState, mem).ifPresent(providers::add);
            } catch (MemoryAllocationException e) {
                throw new RejectedException(RejectionReason.UNEXPECTED_ADMISSION_ERROR, what + ": " + e.getMessage());
            }
        }
        TopologyAdmission admission = topology.admit(providers);
        if (!admission.admitted()) {
            throw new RejectedException(
                    RejectionReason.TOPOLOGY_AFFINITY_ERROR,
                    what + " (" + describe(cpus, mem) + "): " + admission.message());
        }
        return admission.hint();
    }

    /** Exclusive CPUs from the node (or from {@code state}'s default set, for a slice of a bubble). */
    StaticPolicy.Allocation allocateCpus(
            String what, CpuState state, String owner, int n, TopologyHint hint, CpuSet reusable, String from) {
        int available = cpu.assignable(state).union(reusable).size();
        try {
            return cpu.allocate(state, owner, n, affinity(hint), reusable);
        } catch (CpuAllocationException e) {
            RejectionReason reason = RejectionReason.SMT_ALIGNMENT_ERROR.wire().equals(e.reason())
                    ? RejectionReason.SMT_ALIGNMENT_ERROR
                    : RejectionReason.UNEXPECTED_ADMISSION_ERROR;
            throw new RejectedException(
                    reason,
                    what + ": requested " + n + " exclusive CPUs, " + available + " available in " + from + ": "
                            + e.getMessage());
        }
    }

    MemoryState allocateMemory(
            String what,
            MemoryState state,
            String owner,
            TopologyHint hint,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges) {
        try {
            return memory.allocate(state, owner, hint, sizes, charges);
        } catch (MemoryAllocationException e) {
            throw new RejectedException(RejectionReason.UNEXPECTED_ADMISSION_ERROR, what + ": " + e.getMessage());
        }
    }

    /** The NUMA nodes of a merged hint as the CPU manager takes them (empty: anywhere). */
    static CpuSet affinity(TopologyHint hint) {
        return hint == null || hint.numaMask() == null
                ? CpuSet.empty()
                : CpuSet.of(hint.numaMask().toArray());
    }

    static String describe(int cpus, Map<MemoryResource, Long> mem) {
        StringBuilder sb = new StringBuilder();
        if (cpus > 0) {
            sb.append("cpu=").append(cpus);
        }
        mem.forEach((r, v) ->
                sb.append(sb.isEmpty() ? "" : ", ").append(r).append('=').append(MemoryQuantity.format(v)));
        return sb.isEmpty() ? "no pinned resources" : sb.toString();
    }
}
