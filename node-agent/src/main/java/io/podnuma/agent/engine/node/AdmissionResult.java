package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;

/** The outcome of admitting one pod: the new node state and what the pod got, or why it was refused. */
public sealed interface AdmissionResult {

    /** The pod fits; {@code state} includes it. */
    record Admitted(NodeState state, PodAssignment pod) implements AdmissionResult {}

    /**
     * The pod does not fit and the node state is unchanged.
     *
     * @param reason the upstream pod status reason
     * @param message what was requested and what was available
     */
    record Rejected(PodRef pod, RejectionReason reason, String message) implements AdmissionResult {}
}
