package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shapes the planners give one pod ({@link PerContainerPlanner} for placements {@code pod} and
 * {@code container}, {@link PodLevelPlanner} for {@code pod-level}), checked on an assignment read back from a
 * checkpoint, so a file edited by hand or written by a buggy agent is refused instead of pinned.
 *
 * <p>{@link #check} holds whatever policy admitted the pod (a running pod keeps its assignment across a policy
 * change); {@link #checkAlignment} holds only under the topology manager policy that admitted it. Every failure
 * is an {@link IllegalArgumentException} naming the pod, the container, the field, its value and what the planners
 * put there.
 */
final class PodAssignmentRules {

    private final CpuTopology topo;
    private final NumaMask machineNodes;

    PodAssignmentRules(CpuTopology topo) {
        this.topo = topo;
        this.machineNodes =
                NumaMask.of(topo.numaNodes().stream().map(NumaNode::id).toList());
    }

    /** The rules that hold under every policy. */
    void check(PodAssignment pod) {
        numaNodesExist(pod);
        containersInSpecOrder(pod);
        ephemeralOnNodePool(pod);
        kindsFitPlacement(pod);
        pinnedOnlyWhenGuaranteed(pod);
        memoryBlocksWellFormed(pod);
        containerMemoryCarvedFromBudget(pod);
        podMemoryChargedInFull(pod);
        exclusiveContainersPinMemory(pod);
        memoryNodesFollowBlocks(pod);
        memoryCoversAffinity(pod);
        if (pod.hasBubble()) {
            bubblePartition(pod);
            initContainersBesideSidecars(pod);
        } else {
            exclusiveCpusApart(pod);
        }
    }

    /**
     * The promise of the topology manager policy: {@code none} gives no hint; under the others a pod placed with
     * one hint for the pod records it; {@code restricted} keeps exclusive CPUs within the hint and pinned memory on
     * exactly its nodes; {@code single-numa-node} keeps the pod (pod and pod-level placement) or each container
     * (container placement) on one NUMA node and never records a hint on every node.
     */
    void checkAlignment(PodAssignment pod, TopologyPolicyName policy) {
        switch (policy) {
            case NONE -> noAffinity(pod);
            case SINGLE_NUMA_NODE -> {
                affinityRecorded(pod, policy);
                oneNumaNode(pod);
            }
            case RESTRICTED -> {
                affinityRecorded(pod, policy);
                cpusInAffinity(pod);
            }
            // best-effort takes CPUs outside the hint when the hint's nodes run short
            case BEST_EFFORT -> affinityRecorded(pod, policy);
        }
    }

    // ---- rules that hold under every policy ----

    private void numaNodesExist(PodAssignment pod) {
        if (!pod.numaAffinity().isSubsetOf(machineNodes)) {
            throw wrong(pod, null, "numaAffinity", pod.numaAffinity(), "NUMA nodes of this machine " + machineNodes);
        }
        blocksOnMachine(pod, null, "memory", pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memoryNodes().isSubsetOf(machineNodes)) {
                throw wrong(pod, c, "memoryNodes", c.memoryNodes(), "NUMA nodes of this machine " + machineNodes);
            }
            blocksOnMachine(pod, c, "memory", c.memory());
        }
    }

    private void blocksOnMachine(PodAssignment pod, ContainerAssignment c, String field, List<MemoryBlock> blocks) {
        for (int i = 0; i < blocks.size(); i++) {
            NumaMask nodes = blocks.get(i).nodes();
            if (nodes.isEmpty() || !nodes.isSubsetOf(machineNodes)) {
                throw wrong(
                        pod,
                        c,
                        field + "[" + i + "].numaNodes",
                        nodes,
                        "a non-empty set of NUMA nodes of this machine " + machineNodes);
            }
        }
    }

    /** Init containers and sidecars, then app containers, then ephemeral containers: the walk order depends on it. */
    private static void containersInSpecOrder(PodAssignment pod) {
        int rank = 0;
        for (ContainerAssignment c : pod.containers()) {
            int mine = rank(c.type());
            if (mine < rank) {
                throw wrong(
                        pod,
                        c,
                        "type",
                        c.type().wireName(),
                        "init and sidecar containers before app containers, ephemeral containers last");
            }
            rank = mine;
        }
    }

    private static int rank(ContainerType type) {
        return switch (type) {
            case INIT, SIDECAR -> 0;
            case APP -> 1;
            case EPHEMERAL -> 2;
        };
    }

    private static void ephemeralOnNodePool(PodAssignment pod) {
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() != ContainerType.EPHEMERAL) {
                continue;
            }
            String why = "for an ephemeral container, which always runs on the node shared pool unpinned";
            if (c.kind() != AssignmentKind.NODE_SHARED) {
                throw wrong(pod, c, "kind", c.kind().wireName(), "node-shared " + why);
            }
            if (!c.memory().isEmpty()) {
                throw wrong(pod, c, "memory", describe(c.memory()), "none " + why);
            }
            if (!c.memoryNodes().isEmpty()) {
                throw wrong(pod, c, "memoryNodes", c.memoryNodes(), "{} " + why);
            }
        }
    }

    private static void kindsFitPlacement(PodAssignment pod) {
        if (pod.placement() != PodPlacement.POD_LEVEL) {
            String why = "for placement " + pod.placement().wireName() + ", where only pod-level placement has a ";
            if (pod.hasBubble()) {
                throw wrong(pod, null, "bubble", pod.bubble(), "\"\" " + why + "bubble");
            }
            if (!pod.podMemory().isEmpty()) {
                throw wrong(pod, null, "memory", describe(pod.podMemory()), "none " + why + "pod memory budget");
            }
            for (ContainerAssignment c : pod.containers()) {
                if (c.kind() == AssignmentKind.POD_SHARED) {
                    throw wrong(pod, c, "kind", c.kind().wireName(), "exclusive or node-shared " + why + "pod pool");
                }
            }
            if (pod.placement() == PodPlacement.CONTAINER && !pod.numaAffinity().isEmpty()) {
                throw wrong(
                        pod,
                        null,
                        "numaAffinity",
                        pod.numaAffinity(),
                        "{} for placement container, where each container gets its own hint");
            }
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() == ContainerType.EPHEMERAL) {
                continue;
            }
            if (!pod.hasBubble() && c.kind() != AssignmentKind.NODE_SHARED) {
                throw wrong(
                        pod,
                        c,
                        "kind",
                        c.kind().wireName(),
                        "node-shared in a pod with placement pod-level and no bubble (CPU budget 0)");
            }
            if (pod.hasBubble() && c.kind() == AssignmentKind.NODE_SHARED) {
                throw wrong(
                        pod,
                        c,
                        "kind",
                        c.kind().wireName(),
                        "exclusive or pod-shared in a pod with placement pod-level and bubble \"" + pod.bubble()
                                + "\"");
            }
        }
    }

    private static void pinnedOnlyWhenGuaranteed(PodAssignment pod) {
        if (pod.qos() == PodQos.GUARANTEED) {
            return;
        }
        String why = ", because qos is " + pod.qos().wireName() + " and only Guaranteed pods are pinned";
        if (pod.hasBubble()) {
            throw wrong(pod, null, "bubble", pod.bubble(), "\"\"" + why);
        }
        if (!pod.podMemory().isEmpty()) {
            throw wrong(pod, null, "memory", describe(pod.podMemory()), "none" + why);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                throw wrong(pod, c, "kind", c.kind().wireName(), "node-shared" + why);
            }
            if (!c.memory().isEmpty()) {
                throw wrong(pod, c, "memory", describe(c.memory()), "none" + why);
            }
        }
    }

    /** One block per resource, all on the same nodes (one owner is charged on one mask). */
    private static void memoryBlocksWellFormed(PodAssignment pod) {
        ownerBlocks(pod, null, pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            ownerBlocks(pod, c, c.memory());
        }
    }

    /**
     * A pod-level pod's container blocks are carved out of the pod budget: on the pod's nodes, charged nothing,
     * and the long-running containers' blocks add up to at most the budget.
     */
    private static void containerMemoryCarvedFromBudget(PodAssignment pod) {
        if (pod.placement() != PodPlacement.POD_LEVEL) {
            return;
        }
        Map<MemoryResource, Long> budget = new TreeMap<>();
        pod.podMemory().forEach(b -> budget.put(b.resource(), b.size()));
        Map<MemoryResource, Long> longRunning = new TreeMap<>();
        NumaMask podNodes = nodesOf(pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            for (int i = 0; i < c.memory().size(); i++) {
                MemoryBlock b = c.memory().get(i);
                String field = "memory[" + i + "]";
                Long podSize = budget.get(b.resource());
                if (podSize == null || b.size() > podSize) {
                    throw wrong(
                            pod,
                            c,
                            field + ".size",
                            b.resource() + "=" + b.size(),
                            "at most the pod budget " + describe(pod.podMemory())
                                    + " it is carved from under placement pod-level");
                }
                if (!b.nodes().equals(podNodes)) {
                    throw wrong(
                            pod,
                            c,
                            field + ".numaNodes",
                            b.nodes(),
                            "the pod's memory nodes " + podNodes + " under placement pod-level");
                }
                if (!b.charged().isEmpty()) {
                    throw wrong(
                            pod,
                            c,
                            field + ".charged",
                            b.charged(),
                            "{} under placement pod-level (the pod budget is charged, not the container's share)");
                }
                if (c.type().longRunning()) {
                    long sum = longRunning.merge(b.resource(), b.size(), Long::sum);
                    if (sum > podSize) {
                        throw wrong(
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
    private static void podMemoryChargedInFull(PodAssignment pod) {
        for (int i = 0; i < pod.podMemory().size(); i++) {
            MemoryBlock b = pod.podMemory().get(i);
            if (b.chargedTotal() != b.size()) {
                throw wrong(
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
     * A container with exclusive CPUs qualifies for exclusive memory too, so when the pod shows the memory manager
     * pinned (a pod budget, or any container's blocks) each exclusive container holds a {@code memory} block.
     */
    private static void exclusiveContainersPinMemory(PodAssignment pod) {
        boolean memoryPinned = pod.placement() == PodPlacement.POD_LEVEL
                ? !pod.podMemory().isEmpty()
                : pod.containers().stream().anyMatch(c -> !c.memory().isEmpty());
        if (!memoryPinned) {
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE
                    && c.memory().stream().noneMatch(b -> b.resource().equals(MemoryResource.MEMORY))) {
                throw wrong(
                        pod,
                        c,
                        "memory",
                        describe(c.memory()),
                        "a memory block for kind exclusive, as every exclusive container of a pod whose memory is"
                                + " pinned holds one");
            }
        }
    }

    private static void ownerBlocks(PodAssignment pod, ContainerAssignment c, List<MemoryBlock> blocks) {
        TreeMap<MemoryResource, Integer> seen = new TreeMap<>();
        for (int i = 0; i < blocks.size(); i++) {
            MemoryBlock b = blocks.get(i);
            String field = "memory[" + i + "]";
            if (b.size() <= 0) {
                throw wrong(pod, c, field + ".size", b.size(), "a positive number of bytes");
            }
            Integer first = seen.putIfAbsent(b.resource(), i);
            if (first != null) {
                throw wrong(
                        pod,
                        c,
                        field + ".resource",
                        b.resource(),
                        "each resource once (also in memory[" + first + "])");
            }
            if (!b.nodes().equals(blocks.get(0).nodes())) {
                throw wrong(
                        pod,
                        c,
                        field + ".numaNodes",
                        b.nodes(),
                        blocks.get(0).nodes() + " like memory[0]: one owner, one mask");
            }
        }
    }

    /** {@code cpuset.mems}: a pod-level pod's memory nodes for all its containers, else the container's own. */
    private static void memoryNodesFollowBlocks(PodAssignment pod) {
        NumaMask podNodes = nodesOf(pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() == ContainerType.EPHEMERAL) {
                continue;
            }
            if (pod.placement() == PodPlacement.POD_LEVEL) {
                if (!c.memoryNodes().equals(podNodes)) {
                    throw wrong(
                            pod,
                            c,
                            "memoryNodes",
                            c.memoryNodes(),
                            "the nodes of the pod's memory " + podNodes + " under placement pod-level");
                }
            } else if (!c.memoryNodes().equals(nodesOf(c.memory()))) {
                throw wrong(
                        pod,
                        c,
                        "memoryNodes",
                        c.memoryNodes(),
                        "the nodes of the container's memory " + nodesOf(c.memory()));
            }
        }
    }

    /** Memory is pinned on the hint's nodes, widened only when they lack free memory: never narrower. */
    private static void memoryCoversAffinity(PodAssignment pod) {
        NumaMask affinity = pod.numaAffinity();
        if (affinity.isEmpty()) {
            return;
        }
        if (!pod.podMemory().isEmpty() && !affinity.isSubsetOf(nodesOf(pod.podMemory()))) {
            throw wrong(
                    pod,
                    null,
                    "numaAffinity",
                    affinity,
                    "NUMA nodes within the pod's memory nodes " + nodesOf(pod.podMemory()));
        }
        if (pod.placement() != PodPlacement.POD) {
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memory().isEmpty() && !affinity.isSubsetOf(nodesOf(c.memory()))) {
                throw wrong(
                        pod,
                        c,
                        "memoryNodes",
                        nodesOf(c.memory()),
                        "NUMA nodes that include the pod's numaAffinity " + affinity);
            }
        }
    }

    /**
     * The long-running containers' exclusive slices and the pod shared pool are disjoint parts of the bubble, and
     * long-running pod-shared containers run on exactly that pool. What the bubble holds beyond them are slices of
     * containers whose entries were removed (a dead container's slice does not return to the pool).
     */
    private static void bubblePartition(PodAssignment pod) {
        CpuSet slices = CpuSet.empty();
        for (ContainerAssignment c : pod.containers()) {
            if (!c.type().longRunning()) {
                continue;
            }
            if (c.kind() == AssignmentKind.POD_SHARED && !c.cpus().equals(pod.podSharedPool())) {
                throw wrong(pod, c, "cpus", c.cpus(), "the podSharedPool \"" + pod.podSharedPool() + "\"");
            }
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                if (c.cpus().intersects(slices)) {
                    throw wrong(
                            pod,
                            c,
                            "cpus",
                            c.cpus(),
                            "CPUs apart from the other long-running slices (\""
                                    + c.cpus().intersection(slices) + "\" are taken)");
                }
                if (c.cpus().intersects(pod.podSharedPool())) {
                    throw wrong(
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
    private static void initContainersBesideSidecars(PodAssignment pod) {
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
                throw wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs within the bubble minus the sidecar slices before it: \"" + available + "\"");
            }
            if (c.kind() == AssignmentKind.POD_SHARED
                    && !available.difference(c.cpus()).isSubsetOf(dead)) {
                throw wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "the bubble minus the sidecar slices before it: \"" + available + "\"");
            }
        }
    }

    /**
     * Without a bubble every exclusive container took free CPUs from the node, or CPUs of a finished init
     * container before it that no long-running container had taken since (the kubelet's reuse).
     */
    private static void exclusiveCpusApart(PodAssignment pod) {
        CpuSet reusable = CpuSet.empty();
        CpuSet held = CpuSet.empty();
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() != AssignmentKind.EXCLUSIVE) {
                continue;
            }
            CpuSet overlap = c.cpus().intersection(held).difference(reusable);
            if (!overlap.isEmpty()) {
                throw wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs no earlier container holds, except those of a finished init container (\"" + overlap
                                + "\" are held by " + holders(pod, c, overlap) + ")");
            }
            held = held.union(c.cpus());
            reusable = c.type() == ContainerType.INIT ? reusable.union(c.cpus()) : reusable.difference(c.cpus());
        }
    }

    private static String holders(PodAssignment pod, ContainerAssignment upTo, CpuSet cpus) {
        StringBuilder sb = new StringBuilder();
        for (ContainerAssignment c : pod.containers()) {
            if (c == upTo) {
                break;
            }
            if (c.kind() == AssignmentKind.EXCLUSIVE && c.cpus().intersects(cpus)) {
                sb.append(sb.isEmpty() ? "" : ", ")
                        .append(c.type().wireName())
                        .append(' ')
                        .append(c.name());
            }
        }
        return sb.toString();
    }

    // ---- rules of one topology manager policy ----

    /**
     * A pod placed with one hint for the whole pod always has NUMA nodes under best-effort and restricted (every
     * node when it asked for nothing); under single-numa-node one node when it pins CPUs or memory, on a machine
     * with more than one. A pod that pins nothing now may have lost its pinned containers' entries, so it may
     * still carry their hint.
     */
    private void affinityRecorded(PodAssignment pod, TopologyPolicyName policy) {
        if (pod.placement() == PodPlacement.CONTAINER) {
            return;
        }
        NumaMask affinity = pod.numaAffinity();
        if (policy != TopologyPolicyName.SINGLE_NUMA_NODE) {
            if (affinity.isEmpty()) {
                throw wrong(
                        pod,
                        null,
                        "numaAffinity",
                        affinity,
                        "the NUMA nodes of the pod's hint for placement "
                                + pod.placement().wireName() + " under " + policy
                                + " (every node when the pod asked for nothing)");
            }
            return;
        }
        String pinned = pinned(pod);
        if (pinned != null && machineNodes.count() > 1 && affinity.count() != 1) {
            throw wrong(
                    pod,
                    null,
                    "numaAffinity",
                    affinity,
                    "one NUMA node for a pod with placement " + pod.placement().wireName()
                            + " that pins CPUs or memory (" + pinned + ") under " + policy);
        }
    }

    /** The first thing the pod pins, as field and value; null when it pins nothing. */
    private static String pinned(PodAssignment pod) {
        if (pod.hasBubble()) {
            return "bubble \"" + pod.bubble() + "\"";
        }
        if (!pod.podMemory().isEmpty()) {
            return "memory " + describe(pod.podMemory());
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                return "container " + c.name() + " kind exclusive, cpus \"" + c.cpus() + "\"";
            }
            if (!c.memory().isEmpty()) {
                return "container " + c.name() + " memory " + describe(c.memory());
            }
        }
        return null;
    }

    private static void noAffinity(PodAssignment pod) {
        if (!pod.numaAffinity().isEmpty()) {
            throw wrong(
                    pod,
                    null,
                    "numaAffinity",
                    pod.numaAffinity(),
                    "{} under topology manager policy none, which gives no hint");
        }
    }

    private void oneNumaNode(PodAssignment pod) {
        if (pod.placement() == PodPlacement.CONTAINER) {
            for (ContainerAssignment c : pod.containers()) {
                CpuSet cpus = c.kind() == AssignmentKind.EXCLUSIVE ? c.cpus() : CpuSet.empty();
                NumaMask nodes = numaNodesOf(cpus).or(c.memoryNodes());
                if (nodes.count() > 1) {
                    throw wrong(
                            pod,
                            c,
                            c.memoryNodes().count() > 1 ? "memoryNodes" : "cpus",
                            c.memoryNodes().count() > 1 ? c.memoryNodes() : cpus,
                            "one NUMA node under single-numa-node, but CPUs and memory span " + nodes);
                }
            }
            return;
        }
        NumaMask affinity = pod.numaAffinity();
        if (affinity.count() > 1) {
            throw wrong(pod, null, "numaAffinity", affinity, "at most one NUMA node under single-numa-node");
        }
        if (!affinity.isEmpty() && affinity.equals(machineNodes)) {
            throw wrong(
                    pod,
                    null,
                    "numaAffinity",
                    affinity,
                    "{} on this one-node machine: single-numa-node records a hint on every node as none");
        }
        // No affinity: the pod asked for nothing pinned, or the machine has one node; either way one node.
        NumaMask used = nodesUsed(pod);
        NumaMask node = affinity.isEmpty() && !used.isEmpty() ? NumaMask.of(used.first()) : affinity;
        String expected = "NUMA node " + node + (affinity.isEmpty() ? "" : ", the pod's numaAffinity,")
                + " only, under single-numa-node";
        if (!numaNodesOf(pod.bubble()).isSubsetOf(node)) {
            throw wrong(pod, null, "bubble", pod.bubble(), "CPUs of " + expected);
        }
        if (!nodesOf(pod.podMemory()).isSubsetOf(node)) {
            throw wrong(pod, null, "memory[0].numaNodes", nodesOf(pod.podMemory()), expected);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE && !numaNodesOf(c.cpus()).isSubsetOf(node)) {
                throw wrong(pod, c, "cpus", c.cpus(), "CPUs of " + expected);
            }
            if (!c.memoryNodes().isSubsetOf(node)) {
                throw wrong(pod, c, "memoryNodes", c.memoryNodes(), expected);
            }
        }
    }

    private NumaMask nodesUsed(PodAssignment pod) {
        NumaMask nodes = numaNodesOf(pod.exclusiveCpus()).or(nodesOf(pod.podMemory()));
        for (ContainerAssignment c : pod.containers()) {
            nodes = nodes.or(c.memoryNodes());
        }
        return nodes;
    }

    /**
     * A preferred hint under restricted has one mask that fits the CPUs and the memory: the CPUs lie in the pod's
     * affinity and the memory is on exactly its nodes (pod and pod-level placement) or, under container placement,
     * the CPUs lie in the container's own hint, which is its memory's nodes.
     */
    private void cpusInAffinity(PodAssignment pod) {
        NumaMask affinity = pod.numaAffinity();
        if (pod.placement() == PodPlacement.CONTAINER) {
            for (ContainerAssignment c : pod.containers()) {
                if (c.kind() == AssignmentKind.EXCLUSIVE
                        && !c.memory().isEmpty()
                        && !numaNodesOf(c.cpus()).isSubsetOf(c.memoryNodes())) {
                    throw wrong(
                            pod,
                            c,
                            "cpus",
                            c.cpus(),
                            "CPUs on the container's memoryNodes " + c.memoryNodes() + " under restricted");
                }
            }
            return;
        }
        if (affinity.isEmpty()) {
            return;
        }
        CpuSet within = topo.cpusInNumaNodes(CpuSet.of(affinity.toArray()));
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE && !c.cpus().isSubsetOf(within)) {
                throw wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs of the pod's numaAffinity " + affinity + " (\"" + within + "\") under restricted");
            }
        }
        if (!pod.bubble().isSubsetOf(within)) {
            throw wrong(
                    pod,
                    null,
                    "bubble",
                    pod.bubble(),
                    "CPUs of the pod's numaAffinity " + affinity + " (\"" + within + "\") under restricted");
        }
        // The memory hint in a preferred merge is the narrowest that fits: widening it would not be preferred.
        String expected = "exactly the pod's numaAffinity " + affinity + " under restricted";
        if (!pod.podMemory().isEmpty() && !nodesOf(pod.podMemory()).equals(affinity)) {
            throw wrong(pod, null, "memory[0].numaNodes", nodesOf(pod.podMemory()), expected);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memory().isEmpty() && !c.memoryNodes().equals(affinity)) {
                throw wrong(pod, c, "memoryNodes", c.memoryNodes(), expected);
            }
        }
    }

    // ---- helpers ----

    private NumaMask numaNodesOf(CpuSet cpus) {
        return NumaMask.of(topo.numaNodesOf(cpus).toArray());
    }

    private static NumaMask nodesOf(List<MemoryBlock> blocks) {
        NumaMask mask = NumaMask.empty();
        for (MemoryBlock b : blocks) {
            mask = mask.or(b.nodes());
        }
        return mask;
    }

    private static String describe(List<MemoryBlock> blocks) {
        StringBuilder sb = new StringBuilder("[");
        for (MemoryBlock b : blocks) {
            sb.append(sb.length() > 1 ? ", " : "")
                    .append(b.resource())
                    .append('=')
                    .append(b.size())
                    .append(" on ")
                    .append(b.nodes());
        }
        return sb.append(']').toString();
    }

    private static IllegalArgumentException wrong(
            PodAssignment pod, ContainerAssignment c, String field, Object value, String expected) {
        String shown = value instanceof CpuSet cpus ? "\"" + cpus + "\"" : String.valueOf(value);
        return new IllegalArgumentException("pod " + pod.ref() + (c == null ? "" : " container " + c.name()) + ": "
                + field + " is " + shown + ", expected " + expected);
    }
}
