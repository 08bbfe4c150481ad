package io.podnuma.agent.events;

import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.engine.node.RejectionReason;
import java.util.regex.Pattern;

/**
 * The {@code reason} of an Event: one CamelCase word that tools and alerts match on. Every reason the agent emits is
 * one of these; admission refusals carry the kubelet's wording ({@link #of(RejectionReason)}, e.g.
 * {@code TopologyAffinityError}) so they read like the kubelet's, a checkpoint set aside says why
 * ({@link #of(RejectReason)}).
 */
public enum EventReason {

    /** Normal, pod: the pod's containers got their exclusive CPUs and NUMA-aligned memory. */
    RESOURCES_PINNED("ResourcesPinned"),

    /** Warning, pod: a container's cpuset or mems was changed by someone else and has been written back. */
    CPUSET_DRIFT_REPAIRED("CpusetDriftRepaired"),

    /** Warning, pod: writing a container's cpuset or mems failed after retries; the container is not pinned. */
    CPUSET_WRITE_FAILED("CpusetWriteFailed"),

    /** Warning, Node: the checkpoint was corrupt or did not match the topology; set aside, state rebuilt. */
    CHECKPOINT_REJECTED("CheckpointRejected"),

    /** Warning, pod: the agent evicted the pod through the Eviction API (admission {@code Evict}). */
    POD_EVICTED("PodEvicted"),

    /** Warning, pod: an eviction was refused (HTTP 429, usually a PodDisruptionBudget); it will be retried. */
    EVICTION_BLOCKED("EvictionBlocked"),

    /** Warning, pod: an eviction failed for another reason (forbidden, API errors) and was given up. */
    EVICTION_FAILED("EvictionFailed"),

    /** Warning, Node: the kubelet runs a CPU, memory or topology manager policy; the agent writes nothing. */
    KUBELET_CONFLICT("KubeletConflict"),

    /**
     * Warning, Node: {@code cpuManager.partition} asks for cpuset partitions the node cannot make (cgroup v1, a kernel
     * before 6.7); exclusive slices stay exclusive by their cpusets alone.
     */
    PARTITIONS_UNSUPPORTED("PartitionsUnsupported"),

    /** Warning, pod: the kernel refused to make its exclusive slice a cpuset partition; it stays exclusive by cpuset. */
    PARTITION_REFUSED("PartitionRefused"),

    /** Warning, Node: a policy change conflicts with running pods (e.g. reserved CPUs now exclusive); pods named. */
    POLICY_CONFLICT("PolicyConflict"),

    /** Normal, Node: the checkpoint was written under another policy; running pods keep their assignments. */
    POLICY_CHANGED("PolicyChanged"),

    /** Warning, pod: the pod object cannot be read into the engine's pod (e.g. a malformed quantity). */
    POD_SPEC_UNREADABLE("PodSpecUnreadable"),

    /** Normal, pod: the pod asks for devices the kubelet has not given it yet; it is placed once they are given. */
    WAITING_FOR_DEVICES("WaitingForDevices"),

    /** Normal, pod: the pod's budget was resized in place; it kept its CPUs and gained or gave back the difference. */
    RESOURCES_RESIZED("ResourcesResized"),

    /** Warning, pod: the pod's new budget cannot be given in place; it keeps what it holds. */
    RESIZE_INFEASIBLE("ResizeInfeasible"),

    // Warning, pod: the engine refused the pod, in the kubelet's words (RejectionReason).
    TOPOLOGY_AFFINITY_ERROR("TopologyAffinityError"),
    SMT_ALIGNMENT_ERROR("SMTAlignmentError"),
    EMPTY_POD_SHARED_POOL_ERROR("EmptyPodSharedPoolError"),
    UNEXPECTED_ADMISSION_ERROR("UnexpectedAdmissionError"),

    // Warning, Node: the checkpoint was set aside, and why (checkpoint.RejectReason).
    CHECKPOINT_UNREADABLE("CheckpointUnreadable"),
    CHECKPOINT_TRUNCATED("CheckpointTruncated"),
    CHECKPOINT_MALFORMED("CheckpointMalformed"),
    CHECKPOINT_UNSUPPORTED_VERSION("CheckpointUnsupportedVersion"),
    CHECKPOINT_CHECKSUM_MISMATCH("CheckpointChecksumMismatch"),
    CHECKPOINT_TOPOLOGY_MISMATCH("CheckpointTopologyMismatch"),
    CHECKPOINT_BAD_STATE("CheckpointBadState"),
    CHECKPOINT_INCONSISTENT_STATE("CheckpointInconsistentState");

    /** Longest reason the API accepts (events.k8s.io/v1 validation limit). */
    public static final int MAX_LENGTH = 128;

    private final String value;

    EventReason(String value) {
        this.value = Wire.checked(value);
    }

    /** The reason as the Event carries it. */
    public String value() {
        return value;
    }

    /** The engine's refusal in the kubelet's words. */
    public static EventReason of(RejectionReason reason) {
        return switch (reason) {
            case TOPOLOGY_AFFINITY_ERROR -> TOPOLOGY_AFFINITY_ERROR;
            case SMT_ALIGNMENT_ERROR -> SMT_ALIGNMENT_ERROR;
            case EMPTY_POD_SHARED_POOL_ERROR -> EMPTY_POD_SHARED_POOL_ERROR;
            case UNEXPECTED_ADMISSION_ERROR -> UNEXPECTED_ADMISSION_ERROR;
        };
    }

    /** Why a checkpoint was set aside. */
    public static EventReason of(RejectReason reason) {
        return switch (reason) {
            case UNREADABLE -> CHECKPOINT_UNREADABLE;
            case TRUNCATED -> CHECKPOINT_TRUNCATED;
            case MALFORMED -> CHECKPOINT_MALFORMED;
            case UNSUPPORTED_VERSION -> CHECKPOINT_UNSUPPORTED_VERSION;
            case CHECKSUM_MISMATCH -> CHECKPOINT_CHECKSUM_MISMATCH;
            case TOPOLOGY_MISMATCH -> CHECKPOINT_TOPOLOGY_MISMATCH;
            case BAD_STATE -> CHECKPOINT_BAD_STATE;
            case INCONSISTENT_STATE -> CHECKPOINT_INCONSISTENT_STATE;
        };
    }

    /** The wire text: what logs and messages print too. */
    @Override
    public String toString() {
        return value;
    }

    /** The rule of the wire text; in a holder because enum constants are built before the enum's static fields. */
    static final class Wire {

        private static final Pattern CAMEL_CASE = Pattern.compile("[A-Z][A-Za-z0-9]*");

        private Wire() {}

        /** {@code value} when it is one CamelCase word of at most {@link #MAX_LENGTH} characters. */
        static String checked(String value) {
            if (value == null
                    || value.length() > MAX_LENGTH
                    || !CAMEL_CASE.matcher(value).matches()) {
                throw new IllegalArgumentException("event reason '" + value
                        + "' must be one CamelCase word: an upper-case letter, then letters and digits, at most "
                        + MAX_LENGTH + " characters");
            }
            return value;
        }
    }
}
