package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;

/** What an in-place resize of a pod's budget or of its containers' exclusive CPUs comes to ({@link NodeAllocator#resize}). */
public sealed interface ResizeResult {

    /**
     * The new size is in force: the pod keeps every CPU it held and gained {@code added}, or gave back
     * {@code returned}; {@code state} includes it.
     *
     * @param change what changed, for Events ("budget 2 → 3 CPUs", "container app 2 → 4 CPUs")
     */
    record Resized(NodeState state, PodAssignment pod, String change, CpuSet added, CpuSet returned)
            implements ResizeResult {}

    /** The budget asks for the CPUs the pod holds already: nothing to do. */
    record Unchanged(PodAssignment pod) implements ResizeResult {}

    /**
     * The new budget cannot be given in place; the pod keeps what it holds and the node state is unchanged.
     *
     * @param reason the closest upstream reason, for Events and metrics
     * @param message what was asked, what the pod holds, what is free, and what would do
     */
    record Infeasible(PodRef pod, RejectionReason reason, String message) implements ResizeResult {}

    /** The pod holds no budget of CPUs to resize in place (not admitted, or placed per container): nothing done. */
    record NotHeld(PodRef pod, String why) implements ResizeResult {}
}
