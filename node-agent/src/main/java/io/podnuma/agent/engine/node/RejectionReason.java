package io.podnuma.agent.engine.node;

/** The pod status reasons the kubelet uses when a resource manager refuses a pod. */
public final class RejectionReason {

    public static final String TOPOLOGY_AFFINITY_ERROR = "TopologyAffinityError";
    public static final String SMT_ALIGNMENT_ERROR = "SMTAlignmentError";
    public static final String EMPTY_POD_SHARED_POOL_ERROR = "EmptyPodSharedPoolError";
    public static final String UNEXPECTED_ADMISSION_ERROR = "UnexpectedAdmissionError";

    private RejectionReason() {}
}
