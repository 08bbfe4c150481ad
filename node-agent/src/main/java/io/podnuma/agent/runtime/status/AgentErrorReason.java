package io.podnuma.agent.runtime.status;

import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.events.EventReason;

/**
 * The reason of the agent's {@code lastError} on its NumaNodeState. Where the same failure is also told as an Event
 * (a cpuset write, a checkpoint set aside) the error carries the Event's reason, so both read alike.
 */
public enum AgentErrorReason {
    /** Handling a pod change, a container or a tick threw; the loop carries on. */
    INTERNAL_ERROR("InternalError"),
    /** The checkpoint could not be written; the next decision writes it again. */
    CHECKPOINT_WRITE_FAILED("CheckpointWriteFailed"),
    /** A container's cpuset or mems could not be written (it is retried). */
    CPUSET_WRITE_FAILED(EventReason.CPUSET_WRITE_FAILED.value()),

    // The checkpoint was set aside at start, and why (checkpoint.RejectReason).
    CHECKPOINT_UNREADABLE(RejectReason.UNREADABLE.eventReason()),
    CHECKPOINT_TRUNCATED(RejectReason.TRUNCATED.eventReason()),
    CHECKPOINT_MALFORMED(RejectReason.MALFORMED.eventReason()),
    CHECKPOINT_UNSUPPORTED_VERSION(RejectReason.UNSUPPORTED_VERSION.eventReason()),
    CHECKPOINT_CHECKSUM_MISMATCH(RejectReason.CHECKSUM_MISMATCH.eventReason()),
    CHECKPOINT_TOPOLOGY_MISMATCH(RejectReason.TOPOLOGY_MISMATCH.eventReason()),
    CHECKPOINT_BAD_STATE(RejectReason.BAD_STATE.eventReason()),
    CHECKPOINT_INCONSISTENT_STATE(RejectReason.INCONSISTENT_STATE.eventReason());

    private final String wire;

    AgentErrorReason(String wire) {
        this.wire = wire;
    }

    /** The reason as {@code lastError.reason} carries it. */
    public String wire() {
        return wire;
    }

    /** Why the checkpoint was set aside. */
    public static AgentErrorReason of(RejectReason reason) {
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
}
