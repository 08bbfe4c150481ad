package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.node.manager.CpuManager;
import io.podnuma.agent.engine.node.manager.MemoryManager;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicyName;

/**
 * Checks that a node state read back (from a checkpoint) is one the engine could have produced on this machine, so
 * a file edited by hand or written by a buggy agent is refused instead of pinned. Each failure is an
 * {@link IllegalArgumentException} naming the pod, the container, the field, its value and what the planners put
 * there; the rules run in a fixed order, so the first one broken is the one named.
 *
 * <p>In production the agent runs {@link #validateAssignments} when it loads its checkpoint
 * ({@code NodeAgent.loadCheckpoint}, as the check of {@code CheckpointStore.read}, before
 * {@code PolicyTransition.adopt}); {@link #validate}, which adds the topology policy's promise and the node's
 * books, runs only in tests, as the oracle that every state the engine produces is one a checkpoint may hold.
 */
public final class NodeStateValidator {

    private final TopologyPolicyName policy;
    private final MemoryRules memory;
    private final AlignmentRules alignment;
    private final NodeBooks books;

    public NodeStateValidator(
            CpuTopology topo, TopologyPolicyName policy, CpuManager cpuManager, MemoryManager memoryManager) {
        NumaMask machineNodes =
                NumaMask.of(topo.numaNodes().stream().map(NumaNode::id).toList());
        this.policy = policy;
        this.memory = new MemoryRules(machineNodes);
        this.alignment = new AlignmentRules(topo, machineNodes);
        this.books = new NodeBooks(topo, cpuManager, memoryManager);
    }

    /**
     * Every pod passes {@link #validateAssignments}; its NUMA placement keeps the promise of the topology manager
     * policy in force; the node's books add up ({@link NodeBooks}).
     *
     * @return the same state
     */
    public NodeState validate(NodeState state) {
        validateAssignments(state);
        for (PodAssignment pod : state.pods().values()) {
            alignment.checkAlignment(pod, policy);
        }
        books.check(state);
        return state;
    }

    /**
     * Each pod's assignment has the shape the planners give, whatever policy admitted it (a pod keeps its
     * assignment across a policy change).
     *
     * @return the same state
     */
    public NodeState validateAssignments(NodeState state) {
        for (PodAssignment pod : state.pods().values()) {
            check(pod);
        }
        return state;
    }

    /** The rules that hold under every policy, in the order they have always run. */
    private void check(PodAssignment pod) {
        memory.numaNodesExist(pod);
        PodShapeRules.containersInSpecOrder(pod);
        PodShapeRules.ephemeralOnNodePool(pod);
        PodShapeRules.kindsFitPlacement(pod);
        PodShapeRules.pinnedOnlyWhenGuaranteed(pod);
        MemoryRules.memoryBlocksWellFormed(pod);
        PodBudgetRules.containerMemoryCarvedFromBudget(pod);
        PodBudgetRules.podMemoryChargedInFull(pod);
        MemoryRules.exclusiveContainersPinMemory(pod);
        MemoryRules.memoryNodesFollowBlocks(pod);
        MemoryRules.memoryCoversAffinity(pod);
        if (pod.hasBubble()) {
            PodBudgetRules.bubblePartition(pod);
            PodBudgetRules.initContainersBesideSidecars(pod);
        } else {
            CpuRules.exclusiveCpusApart(pod);
        }
    }
}
