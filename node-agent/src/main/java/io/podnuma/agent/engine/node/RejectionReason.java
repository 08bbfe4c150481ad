package io.podnuma.agent.engine.node;

/** Why a resource manager refuses a pod, with the pod status reason the kubelet writes for it. */
public enum RejectionReason {
    TOPOLOGY_AFFINITY_ERROR("TopologyAffinityError"),
    SMT_ALIGNMENT_ERROR("SMTAlignmentError"),
    EMPTY_POD_SHARED_POOL_ERROR("EmptyPodSharedPoolError"),
    UNEXPECTED_ADMISSION_ERROR("UnexpectedAdmissionError");

    private final String wire;

    RejectionReason(String wire) {
        this.wire = wire;
    }

    /** The reason as the kubelet spells it (pod status, Events, metric labels): tools match on this text. */
    public String wire() {
        return wire;
    }
}
