package io.podnuma.agent.checkpoint;

import io.podnuma.agent.engine.state.NodeState;
import java.nio.file.Path;
import java.util.Objects;

/** The outcome of reading the checkpoint at start: nothing there, a usable state, or a rejected file. */
public sealed interface CheckpointRead {

    /** The state to start from: the checkpoint's, or {@code empty} when there is none to use. */
    NodeState stateOr(NodeState empty);

    /** No checkpoint: a first start on this node. Start from the empty state. */
    record Missing() implements CheckpointRead {
        @Override
        public NodeState stateOr(NodeState empty) {
            return empty;
        }
    }

    /**
     * A valid checkpoint.
     *
     * @param configChanged the policy hash differs from the current one: keep running pods' assignments,
     *     apply the new policy to new pods
     */
    record Loaded(Checkpoint checkpoint, boolean configChanged) implements CheckpointRead {
        public Loaded {
            Objects.requireNonNull(checkpoint, "checkpoint");
        }

        @Override
        public NodeState stateOr(NodeState empty) {
            return checkpoint.state();
        }
    }

    /**
     * A checkpoint that cannot be used. It was moved to {@code movedTo} (kept for inspection) and the state must
     * be rebuilt from the live pods; {@code message} says what was wrong, for an Event.
     */
    record Rejected(RejectReason reason, String message, Path movedTo) implements CheckpointRead {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(movedTo, "movedTo");
        }

        @Override
        public NodeState stateOr(NodeState empty) {
            return empty;
        }
    }
}
