package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.DeviceHints;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryAllocationException;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.node.manager.CpuManager;
import io.podnuma.agent.engine.node.manager.MemoryManager;
import io.podnuma.agent.engine.node.manager.StaticCpuManager;
import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The three managers of one node and the glue between them: hint collection (theirs and the devices'), merge, and
 * allocation calls whose failures become rejections with the upstream reason.
 */
record Managers(CpuTopology topo, CpuManager cpu, MemoryManager memory, TopologyPolicy topology) {

    /**
     * The devices a request holds, and all of the node's.
     *
     * @param given the devices of the pod (pod scope) or of one container
     * @param node every device of the node
     */
    record Given(List<Device> given, List<Device> node) {

        static Given pod(PodDevices devices) {
            return new Given(devices.ofPod(), devices.node());
        }

        static Given container(PodDevices devices, String container) {
            return new Given(devices.of(container), devices.node());
        }
    }

    boolean pinsCpus() {
        return cpu.pinsCpus();
    }

    /** Whether the CPU manager hands out whole physical cores only ({@code full-pcpus-only}). */
    boolean fullPcpusOnly() {
        return cpu instanceof StaticCpuManager s && s.policy().options().fullPcpusOnly();
    }

    boolean pinsMemory() {
        return memory.pinsMemory();
    }

    /**
     * Merges the CPU, memory and device hints for a request and applies the topology policy.
     *
     * @param what names the pod or container in the rejection message
     * @param devices the devices the kubelet gave the pod or container, and the node's (see {@link DeviceHints})
     */
    TopologyHint admit(
            String what,
            CpuState cpuState,
            int cpus,
            CpuSet reusable,
            MemoryState memState,
            Map<MemoryResource, Long> mem,
            Given devices) {
        List<Map<String, List<TopologyHint>>> providers = new ArrayList<>(3);
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
        if (!devices.given().isEmpty()) {
            providers.add(DeviceHints.of(devices.given(), devices.node(), topology.nodes()));
        }
        TopologyAdmission admission = topology.admit(providers);
        if (!admission.admitted()) {
            throw new RejectedException(
                    RejectionReason.TOPOLOGY_AFFINITY_ERROR,
                    what + " (" + describe(cpus, mem, devices.given()) + "): " + admission.message());
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

    static String describe(int cpus, Map<MemoryResource, Long> mem, List<Device> devices) {
        StringBuilder sb = new StringBuilder();
        if (cpus > 0) {
            sb.append("cpu=").append(cpus);
        }
        mem.forEach((r, v) ->
                sb.append(sb.isEmpty() ? "" : ", ").append(r).append('=').append(MemoryQuantity.format(v)));
        new TreeMap<>(devices.stream().collect(Collectors.groupingBy(Device::resource, Collectors.counting())))
                .forEach((r, n) -> sb.append(sb.isEmpty() ? "" : ", ")
                        .append(r)
                        .append('=')
                        .append(n));
        return sb.isEmpty() ? "no pinned resources" : sb.toString();
    }
}
