package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicyName;

/**
 * The promise of the topology manager policy that admitted a pod, which holds only under that policy (a running pod
 * keeps its assignment across a policy change).
 */
final class AlignmentRules {

    private final CpuTopology topo;
    private final NumaMask machineNodes;

    AlignmentRules(CpuTopology topo, NumaMask machineNodes) {
        this.topo = topo;
        this.machineNodes = machineNodes;
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
                throw Wording.wrong(
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
            throw Wording.wrong(
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
            return "memory " + Wording.describe(pod.podMemory());
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                return "container " + c.name() + " kind exclusive, cpus \"" + c.cpus() + "\"";
            }
            if (!c.memory().isEmpty()) {
                return "container " + c.name() + " memory " + Wording.describe(c.memory());
            }
        }
        return null;
    }

    private static void noAffinity(PodAssignment pod) {
        if (!pod.numaAffinity().isEmpty()) {
            throw Wording.wrong(
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
                    throw Wording.wrong(
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
            throw Wording.wrong(pod, null, "numaAffinity", affinity, "at most one NUMA node under single-numa-node");
        }
        if (!affinity.isEmpty() && affinity.equals(machineNodes)) {
            throw Wording.wrong(
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
            throw Wording.wrong(pod, null, "bubble", pod.bubble(), "CPUs of " + expected);
        }
        if (!Wording.nodesOf(pod.podMemory()).isSubsetOf(node)) {
            throw Wording.wrong(pod, null, "memory[0].numaNodes", Wording.nodesOf(pod.podMemory()), expected);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE && !numaNodesOf(c.cpus()).isSubsetOf(node)) {
                throw Wording.wrong(pod, c, "cpus", c.cpus(), "CPUs of " + expected);
            }
            if (!c.memoryNodes().isSubsetOf(node)) {
                throw Wording.wrong(pod, c, "memoryNodes", c.memoryNodes(), expected);
            }
        }
    }

    private NumaMask nodesUsed(PodAssignment pod) {
        NumaMask nodes = numaNodesOf(pod.exclusiveCpus()).or(Wording.nodesOf(pod.podMemory()));
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
                    throw Wording.wrong(
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
                throw Wording.wrong(
                        pod,
                        c,
                        "cpus",
                        c.cpus(),
                        "CPUs of the pod's numaAffinity " + affinity + " (\"" + within + "\") under restricted");
            }
        }
        if (!pod.bubble().isSubsetOf(within)) {
            throw Wording.wrong(
                    pod,
                    null,
                    "bubble",
                    pod.bubble(),
                    "CPUs of the pod's numaAffinity " + affinity + " (\"" + within + "\") under restricted");
        }
        // The memory hint in a preferred merge is the narrowest that fits: widening it would not be preferred.
        String expected = "exactly the pod's numaAffinity " + affinity + " under restricted";
        if (!pod.podMemory().isEmpty() && !Wording.nodesOf(pod.podMemory()).equals(affinity)) {
            throw Wording.wrong(pod, null, "memory[0].numaNodes", Wording.nodesOf(pod.podMemory()), expected);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (!c.memory().isEmpty() && !c.memoryNodes().equals(affinity)) {
                throw Wording.wrong(pod, c, "memoryNodes", c.memoryNodes(), expected);
            }
        }
    }

    private NumaMask numaNodesOf(CpuSet cpus) {
        return NumaMask.of(topo.numaNodesOf(cpus).toArray());
    }
}
