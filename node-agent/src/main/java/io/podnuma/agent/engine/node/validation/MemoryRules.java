package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.List;
import java.util.TreeMap;

/**
 * One pod's memory: blocks on this machine's NUMA nodes and well formed, exclusive containers holding memory when the
 * pod's memory is pinned, {@code memoryNodes} following the blocks, memory never narrower than the pod's affinity.
 */
final class MemoryRules {

    private final NumaMask machineNodes;

    MemoryRules(NumaMask machineNodes) {
        this.machineNodes = machineNodes;
    }

    void numaNodesExist(PodAssignment pod) {
        if (!pod.numaAffinity().isSubsetOf(machineNodes)) {
            throw Wording.wrong(
                    pod, null, "numaAffinity", pod.numaAffinity(), "NUMA nodes of this machine " + machineNodes);
        }
        blocksOnMachine(pod, null, "memory", pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memoryNodes().isSubsetOf(machineNodes)) {
                throw Wording.wrong(
                        pod, c, "memoryNodes", c.memoryNodes(), "NUMA nodes of this machine " + machineNodes);
            }
            blocksOnMachine(pod, c, "memory", c.memory());
        }
    }

    private void blocksOnMachine(PodAssignment pod, ContainerAssignment c, String field, List<MemoryBlock> blocks) {
        for (int i = 0; i < blocks.size(); i++) {
            NumaMask nodes = blocks.get(i).nodes();
            if (nodes.isEmpty() || !nodes.isSubsetOf(machineNodes)) {
                throw Wording.wrong(
                        pod,
                        c,
                        field + "[" + i + "].numaNodes",
                        nodes,
                        "a non-empty set of NUMA nodes of this machine " + machineNodes);
            }
        }
    }

    /** One block per resource, all on the same nodes (one owner is charged on one mask). */
    static void memoryBlocksWellFormed(PodAssignment pod) {
        ownerBlocks(pod, null, pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            ownerBlocks(pod, c, c.memory());
        }
    }

    /**
     * A container with exclusive CPUs qualifies for exclusive memory too, so when the pod shows the memory manager
     * pinned (a pod budget, or any container's blocks) each exclusive container holds a {@code memory} block.
     */
    static void exclusiveContainersPinMemory(PodAssignment pod) {
        boolean memoryPinned = pod.placement() == PodPlacement.POD_LEVEL
                ? !pod.podMemory().isEmpty()
                : pod.containers().stream().anyMatch(c -> !c.memory().isEmpty());
        if (!memoryPinned) {
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE
                    && c.memory().stream().noneMatch(b -> b.resource().equals(MemoryResource.MEMORY))) {
                throw Wording.wrong(
                        pod,
                        c,
                        "memory",
                        Wording.describe(c.memory()),
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
                throw Wording.wrong(pod, c, field + ".size", b.size(), "a positive number of bytes");
            }
            Integer first = seen.putIfAbsent(b.resource(), i);
            if (first != null) {
                throw Wording.wrong(
                        pod,
                        c,
                        field + ".resource",
                        b.resource(),
                        "each resource once (also in memory[" + first + "])");
            }
            if (!b.nodes().equals(blocks.get(0).nodes())) {
                throw Wording.wrong(
                        pod,
                        c,
                        field + ".numaNodes",
                        b.nodes(),
                        blocks.get(0).nodes() + " like memory[0]: one owner, one mask");
            }
        }
    }

    /** {@code cpuset.mems}: a pod-level pod's memory nodes for all its containers, else the container's own. */
    static void memoryNodesFollowBlocks(PodAssignment pod) {
        NumaMask podNodes = Wording.nodesOf(pod.podMemory());
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() == ContainerType.EPHEMERAL) {
                continue;
            }
            if (pod.placement() == PodPlacement.POD_LEVEL) {
                if (!c.memoryNodes().equals(podNodes)) {
                    throw Wording.wrong(
                            pod,
                            c,
                            "memoryNodes",
                            c.memoryNodes(),
                            "the nodes of the pod's memory " + podNodes + " under placement pod-level");
                }
            } else if (!c.memoryNodes().equals(Wording.nodesOf(c.memory()))) {
                throw Wording.wrong(
                        pod,
                        c,
                        "memoryNodes",
                        c.memoryNodes(),
                        "the nodes of the container's memory " + Wording.nodesOf(c.memory()));
            }
        }
    }

    /** Memory is pinned on the hint's nodes, widened only when they lack free memory: never narrower. */
    static void memoryCoversAffinity(PodAssignment pod) {
        NumaMask affinity = pod.numaAffinity();
        if (affinity.isEmpty()) {
            return;
        }
        if (!pod.podMemory().isEmpty() && !affinity.isSubsetOf(Wording.nodesOf(pod.podMemory()))) {
            throw Wording.wrong(
                    pod,
                    null,
                    "numaAffinity",
                    affinity,
                    "NUMA nodes within the pod's memory nodes " + Wording.nodesOf(pod.podMemory()));
        }
        if (pod.placement() != PodPlacement.POD) {
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memory().isEmpty() && !affinity.isSubsetOf(Wording.nodesOf(c.memory()))) {
                throw Wording.wrong(
                        pod,
                        c,
                        "memoryNodes",
                        Wording.nodesOf(c.memory()),
                        "NUMA nodes that include the pod's numaAffinity " + affinity);
            }
        }
    }
}
