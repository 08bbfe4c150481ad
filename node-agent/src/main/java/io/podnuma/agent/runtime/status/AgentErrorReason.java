package io.podnuma.agent.runtime.status;

import io.podnuma.agent.checkpoint.RejectReason;
import io.podnuma.agent.events.EventReason;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

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
    CHECKPOINT_UNREADABLE(RejectReason.UNREADABLE),
    CHECKPOINT_TRUNCATED(RejectReason.TRUNCATED),
    CHECKPOINT_MALFORMED(RejectReason.MALFORMED),
    CHECKPOINT_UNSUPPORTED_VERSION(RejectReason.UNSUPPORTED_VERSION),
    CHECKPOINT_CHECKSUM_MISMATCH(RejectReason.CHECKSUM_MISMATCH),
    CHECKPOINT_TOPOLOGY_MISMATCH(RejectReason.TOPOLOGY_MISMATCH),
    CHECKPOINT_BAD_STATE(RejectReason.BAD_STATE),
    CHECKPOINT_INCONSISTENT_STATE(RejectReason.INCONSISTENT_STATE);

    private static final Map<RejectReason, AgentErrorReason> BY_REJECT = new EnumMap<>(RejectReason.class);

    static {
        for (AgentErrorReason r : values()) {
            r.rejected.ifPresent(rejected -> BY_REJECT.put(rejected, r));
        }
    }

    private final String wire;
    private final Optional<RejectReason> rejected;

    AgentErrorReason(String wire) {
        this.wire = wire;
        this.rejected = Optional.empty();
    }

    /** A checkpoint set aside: the reason's text is the checkpoint's own. */
    AgentErrorReason(RejectReason rejected) {
        this.wire = rejected.eventReason();
        this.rejected = Optional.of(rejected);
    }

    /** The reason as {@code lastError.reason} carries it. */
    public String wire() {
        return wire;
    }

    /** Why the checkpoint was set aside. */
    public static AgentErrorReason of(RejectReason reason) {
        AgentErrorReason r = BY_REJECT.get(reason);
        if (r == null) {
            throw new IllegalArgumentException("no lastError reason for the checkpoint rejection " + reason);
        }
        return r;
    }
}
