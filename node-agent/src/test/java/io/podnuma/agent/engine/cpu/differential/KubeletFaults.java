package io.podnuma.agent.engine.cpu.differential;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Checks the kubelet's answers against its own state: an admission must grant exactly the requested
 * number of CPUs, all of them from what was allocatable then (the shared pool minus the reserved
 * CPUs, plus the pod's reusable init-container CPUs), and at least min(request, aligned) of them from
 * the allocatable CPUs inside the NUMA affinity (the kubelet's first pass takes that many from there
 * alone). The state is replayed from the kubelet's own outcome, so the check does not depend on the
 * Java engine.
 *
 * <p>The kubelet v1.37.2 breaks this on asymmetric machines (offline CPUs): it judges a core, socket,
 * NUMA node or L3 group "free" by comparing its free CPUs with a machine-wide average (integer
 * division) and then claims every CPU the element has, busy ones and ones outside the set it was
 * given included, counting them all. A CPU can then go to two containers, a container gets fewer
 * CPUs than it asked for, or CPUs outside the NUMA affinity although enough inside were free.
 */
final class KubeletFaults {

    private KubeletFaults() {}

    /** The first operation at which the kubelet granted CPUs it did not have, if any. */
    static OptionalInt firstFault(DiffCase input, Outcome kubelet) {
        if (kubelet.createError() != null) {
            return OptionalInt.empty();
        }
        CpuSet reserved = CpuSet.parse(kubelet.reserved());
        CpuSet shared = CpuSet.parse(kubelet.defaultSet());
        Map<String, CpuSet> reuse = new HashMap<>();
        Set<String> assigned = new HashSet<>();
        List<DiffCase.Op> ops = input.ops();
        for (int i = 0; i < kubelet.ops().size(); i++) {
            DiffCase.Op op = ops.get(i);
            Outcome.OpOutcome out = kubelet.ops().get(i);
            if (!op.isAdd()) {
                assigned.remove(op.owner());
            } else if (out.errorReason() == null) {
                CpuSet granted = CpuSet.parse(out.cpus());
                if (!assigned.contains(op.owner())) {
                    CpuSet allocatable =
                            shared.difference(reserved).union(reuse.getOrDefault(op.pod(), CpuSet.empty()));
                    if (granted.size() != op.cpus() || !granted.isSubsetOf(allocatable)) {
                        return OptionalInt.of(i);
                    }
                    // The first pass takes min(request, aligned) CPUs from the aligned ones alone.
                    CpuSet aligned = aligned(input, op, allocatable);
                    if (granted.intersectionSize(aligned) < Math.min(op.cpus(), aligned.size())) {
                        return OptionalInt.of(i);
                    }
                    assigned.add(op.owner());
                }
                reuse.keySet().removeIf(pod -> !pod.equals(op.pod()));
                CpuSet current = reuse.getOrDefault(op.pod(), CpuSet.empty());
                boolean standardInit = op.init() && !op.sidecar();
                reuse.put(op.pod(), standardInit ? current.union(granted) : current.difference(granted));
            }
            shared = CpuSet.parse(out.defaultSet());
        }
        return OptionalInt.empty();
    }

    /** The allocatable CPUs inside the operation's NUMA affinity (its sockets with align-by-socket). */
    private static CpuSet aligned(DiffCase input, DiffCase.Op op, CpuSet allocatable) {
        if (op.hint() == null) {
            return CpuSet.empty();
        }
        CpuTopology topo = input.topology();
        CpuSet nodes = CpuSet.parse(op.hint());
        CpuSet area = "true".equals(input.options().get(StaticPolicyOptions.ALIGN_BY_SOCKET))
                ? topo.cpusInSockets(topo.socketsInNumaNodes(nodes))
                : topo.cpusInNumaNodes(nodes);
        return allocatable.intersection(area);
    }
}
