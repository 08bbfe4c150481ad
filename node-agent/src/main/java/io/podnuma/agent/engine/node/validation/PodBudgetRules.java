package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pod-level pod's budget: container memory carved out of the pod's, the pod's memory charged in full, and the
 * bubble split into disjoint long-running slices and the pod shared pool, with init containers beside the sidecars
 * before them.
 */
final class PodBudgetRules {

    private PodBudgetRules() {}

    /**
     * A pod-level pod's container blocks are carved out of the pod budget: on the pod's nodes, charged nothing,
     * and the long-running containers' blocks add up to at most the budget.
     */
    static void containerMemoryCarvedFromBudget(PodAssignment pod) {
        if (pod.placement() != PodPlacement.POD_LEVEL) {
            return;
        }
        Map<MemoryResource, Long> budget = new TreeMap<>();
        pod.podMemory().forEach(b -> budget.put(b.resource(), b.size()));
        Map<MemoryResource, Long> longRunning = new TreeMap<>();
        NumaMask podNodes = Wording.nodesOf(pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            for (int i = 0; i < c.memory().size(); i++) {
                MemoryBlock b = c.memory().get(i);
                String field = "memory[" + i + "]";
                Long podSize = budget.get(b.resource());
                if (podSize == null || b.size() > podSize) {
                    throw Wording.wrong(
                            pod,
                            c,
                            field + ".size",
                            b.resource() + "=" + b.size(),
                            "at most the pod budget " + Wording.describe(pod.podMemory())
                                    + " it is carved from under placement pod-level");
                }
                if (!b.nodes().equals(podNodes)) {
                    throw Wording.wrong(
                            pod,
                            c,
                            field + ".numaNodes",
                            b.nodes(),
                            "the pod's memory nodes " + podNodes + " under placement pod-level");
                }
                if (!b.charged().isEmpty()) {
                    throw Wording.wrong(
                            pod,
                            c,
                            field + ".charged",
                            b.charged(),
                            "{} under placement pod-level (the pod budget is charged, not the container's share)");
                }
                if (c.type().longRunning()) {
                    long sum = longRunning.merge(b.resource(), b.size(), Long::sum);
                    if (sum > podSize) {
                        throw Wording.wrong(
                                pod,
                                c,
                                field + ".size",
                                b.resource() + "=" + b.size(),
                                "a size that keeps the long-running containers' " + b.resource() + " (now " + sum
                                        + " bytes) within the pod budget of " + podSize + " bytes");
                    }
                }
            }
        }
    }

    /** The pod budget is charged to the nodes in full (only containers reuse a finished init container's memory). */
    static void podMemoryChargedInFull(PodAssignment pod) {
        for (int i = 0; i < pod.podMemory().size(); i++) {
            MemoryBlock b = pod.podMemory().get(i);
            if (b.chargedTotal() != b.size()) {
                throw Wording.wrong(
                        pod,
                        null,
                        "memory[" + i + "].charged",
                        b.charged(),
                        "charges adding up to the block's size " + b.size() + " (they add up to " + b.chargedTotal()
                                + ")");
            }
        }
    }

    /**
     * The long-running containers' exclusive slices and the pod shared pool are disjoint parts of the bubble, and
     * long-running pod-shared containers run on exactly that pool. What the bubble holds beyond them are slices of
     * containers whose entries were removed (a dead container's slice does not return to the pool).
     */
    static void bubblePartition(PodAssignment pod) {
        CpuSet slices = CpuSet.empty();
        for (ContainerAssignment c : pod.containers()) {
            if (!c.type().longRunning()) {
                continue;
            }
            if (c.kind() == AssignmentKind.POD_SHARED && !c.cpus().equals(pod.podSharedPool())) {
                throw Wording.wrong(pod, c, "cpus", c.cpus(), "the podSharedPool \"" + pod.podSharedPool() + "\"");
            }
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                if (c.cpus().intersects(slices)) {
                    throw Wording.wrong(
                            pod,
                            c,
                            "cpus",
                            c.cpus(),
                            "CPUs apart from the other long-running slices (\""
                                    + c.cpus().intersection(slices) + "\" are taken)");
                }
                if (c.cpus().intersects(pod.podSharedPool())) {
                    throw Wording.wrong(
                            pod,
                            c,
                            "cpus",
                            c.cpus(),
                            "CPUs apart from the podSharedPool \"" + pod.podSharedPool() + "\"");
                }
                slices = slices.union(c.cpus());
            }
        }
    }

    /**
     * A standard init container runs before the sidecars after it start: it may use the bubble minus the sidecar
     * slices before it, all of it when it is pod-shared. Slices of removed sidecars and app containers may be
     * missing from that (they stay out of the pod pool), nothing else.
     */
    static void initContainersBesideSidecars(PodAssignment pod) {
        CpuSet dead = pod.bubble().difference(pod.podSharedPool());
        for (ContainerAssignment c : pod.containers()) {
            if (c.type().longRunning() && c.kind() == AssignmentKind.EXCLUSIVE) {
                dead = dead.difference(c.cpus());
            }
        }
        CpuSet sidecars = CpuSet.empty();
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() == ContainerType.SIDECAR && c.kind() == AssignmentKind.EXCLUSIVE) {
                sidecars = sidecars.union(c.cpus());
            }
            if (c.type() != ContainerType.INIT) {
                continue;
            }
            CpuSet available = pod.bubble().difference(sidecars);
            if (c.cpus().intersects(sidecars)) {
                throw Wording.wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs within the bubble minus the sidecar slices before it: \"" + available + "\"");
            }
            if (c.kind() == AssignmentKind.POD_SHARED
                    && !available.difference(c.cpus()).isSubsetOf(dead)) {
                throw Wording.wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "the bubble minus the sidecar slices before it: \"" + available + "\"");
            }
        }
    }
}
