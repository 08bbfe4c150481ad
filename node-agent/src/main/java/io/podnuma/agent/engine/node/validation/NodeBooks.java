package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.manager.CpuManager;
import io.podnuma.agent.engine.node.manager.MemoryManager;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's books across pods: every pod's exclusive CPUs online, not reserved and its own; the pools adding up to
 * the online CPUs; the memory books rebuilding from the pods' blocks.
 */
final class NodeBooks {

    private final CpuTopology topo;
    private final CpuManager cpu;
    private final MemoryManager memory;

    NodeBooks(CpuTopology topo, CpuManager cpu, MemoryManager memory) {
        this.topo = topo;
        this.cpu = cpu;
        this.memory = memory;
    }

    /** @throws IllegalArgumentException naming the pod, container, field and value that do not fit */
    void check(NodeState state) {
        CpuSet exclusive = exclusiveCpusApart(state);
        poolsAddUp(state, exclusive);
        memoryBooksRebuild(state);
    }

    /** Each pod's CPUs are online, not reserved and its own; returns their union. */
    private CpuSet exclusiveCpusApart(NodeState state) {
        CpuSet exclusive = CpuSet.empty();
        for (PodAssignment pod : state.pods().values()) {
            if (pod.hasBubble()) {
                cpusFree(state, pod, null, "bubble", pod.bubble(), exclusive);
            } else {
                for (ContainerAssignment c : pod.containers()) {
                    if (c.kind() == AssignmentKind.EXCLUSIVE) {
                        cpusFree(state, pod, c, "cpus", c.cpus(), exclusive);
                    }
                }
            }
            exclusive = exclusive.union(pod.exclusiveCpus());
        }
        return exclusive;
    }

    private void cpusFree(
            NodeState state, PodAssignment pod, ContainerAssignment c, String field, CpuSet cpus, CpuSet otherPods) {
        CpuSet online = topo.onlineCpus();
        CpuSet reserved = cpu.reserved();
        String problem = null;
        if (!cpus.isSubsetOf(online)) {
            problem = "online CPUs (\"" + cpus.difference(online) + "\" are not; online: \"" + online + "\")";
        } else if (cpus.intersects(reserved)) {
            problem = "CPUs that are not reserved (\"" + cpus.intersection(reserved) + "\" are)";
        } else if (cpus.intersects(otherPods)) {
            CpuSet taken = cpus.intersection(otherPods);
            problem = "CPUs no other pod holds (\"" + taken + "\" are held by "
                    + holders(state, taken, pod.ref().uid()) + ")";
        }
        if (problem != null) {
            throw new IllegalArgumentException("pod " + pod.ref() + (c == null ? "" : " container " + c.name()) + ": "
                    + field + " is \"" + cpus + "\", expected " + problem);
        }
    }

    /** Every online CPU is shared, reserved or exclusive, and only one of them (reserved CPUs may be shared). */
    private void poolsAddUp(NodeState state, CpuSet exclusive) {
        CpuSet online = topo.onlineCpus();
        CpuSet reserved = cpu.reserved();
        CpuSet shared = state.sharedPool();
        if (shared.intersects(exclusive)) {
            CpuSet both = shared.intersection(exclusive);
            throw new IllegalArgumentException("sharedPool is \"" + shared
                    + "\", expected CPUs no pod holds exclusively (\"" + both + "\" are held by "
                    + holders(state, both, null)
                    + ")");
        }
        CpuSet all = shared.union(exclusive).union(reserved);
        if (!all.equals(online)) {
            throw new IllegalArgumentException("sharedPool is \"" + shared + "\", expected the online CPUs \"" + online
                    + "\" minus the exclusive CPUs \"" + exclusive + "\" (reserved CPUs \"" + reserved
                    + "\" may be left out)"
                    + (all.difference(online).isEmpty() ? "" : "; not online: \"" + all.difference(online) + "\"")
                    + (online.difference(all).isEmpty() ? "" : "; held by nobody: \"" + online.difference(all) + "\""));
        }
    }

    /** Who holds any of {@code cpus}, pods other than {@code exceptUid}: their bubbles or containers' cpus. */
    private static String holders(NodeState state, CpuSet cpus, String exceptUid) {
        List<String> out = new ArrayList<>();
        for (PodAssignment pod : state.pods().values()) {
            if (pod.ref().uid().equals(exceptUid)) {
                continue;
            }
            if (pod.hasBubble() && pod.bubble().intersects(cpus)) {
                out.add("pod " + pod.ref() + " in its bubble");
            }
            for (ContainerAssignment c : pod.containers()) {
                if (!pod.hasBubble()
                        && c.kind() == AssignmentKind.EXCLUSIVE
                        && c.cpus().intersects(cpus)) {
                    out.add("pod " + pod.ref() + " container " + c.name() + " in its cpus");
                }
            }
        }
        return String.join(", ", out);
    }

    private void memoryBooksRebuild(NodeState state) {
        if (memory.pinsMemory()) {
            try {
                memory.restore(state.memoryOwners());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("memory does not fit this machine's books: " + e.getMessage(), e);
            }
        } else if (!state.memoryOwners().isEmpty()) {
            throw new IllegalArgumentException("the state pins memory for "
                    + state.memoryOwners().keySet() + " but the memory manager policy is None");
        }
    }
}
