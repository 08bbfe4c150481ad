package io.podnuma.agent.runtime.recovery;

import io.podnuma.agent.checkpoint.Checkpoint;
import io.podnuma.agent.checkpoint.CheckpointRead;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.PolicyTransition;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.events.EventReason;
import io.podnuma.agent.events.EventType;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.report.ConditionReason;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.loop.AgentLoop;
import io.podnuma.agent.runtime.pin.WriteMode;
import io.podnuma.agent.runtime.status.AgentErrorReason;
import io.podnuma.agent.runtime.status.AgentStatus;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint: read once at start (each pod's assignment checked against what the engine produces, then carried
 * over to the policy in force), written after every decision, deleted when the node leaves podnuma.
 */
public final class Recovery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** What the start begins with: the node state, and whether the host's cpusets must be read first. */
    public record Recovered(NodeState state, WriteMode start) {}

    private final CheckpointStore store;
    private final NodeAllocator allocator;
    private final TopologyFingerprint fingerprint;
    private final String configHash;
    private final RuntimeEvents events;
    private final AgentStatus status;
    private final AgentMetrics metrics;
    private final CheckpointSync sync;
    /** The last write failed: the file is older than the state until a write succeeds. */
    private boolean behind;

    public Recovery(
            CheckpointStore store,
            NodeAllocator allocator,
            TopologyFingerprint fingerprint,
            String configHash,
            RuntimeEvents events,
            AgentStatus status,
            AgentMetrics metrics,
            AgentLoop loop) {
        this.store = store;
        this.allocator = allocator;
        this.fingerprint = fingerprint;
        this.configHash = configHash;
        this.events = events;
        this.status = status;
        this.metrics = metrics;
        this.sync = new CheckpointSync(store, e -> loop.execute("the checkpoint's fsync", () -> failed(e)));
    }

    /** Reads the checkpoint and adopts it ({@link WriteMode#FOLLOWING}); {@link WriteMode#REBUILDING} when there is none. */
    public Recovered recover() {
        CheckpointRead read = store.read(
                fingerprint,
                configHash,
                s -> PolicyTransition.adopt(allocator, allocator.validateAssignments(s))
                        .state());
        return switch (read) {
            case CheckpointRead.Missing m -> new Recovered(allocator.initialState(), WriteMode.REBUILDING);
            case CheckpointRead.Loaded l -> {
                PolicyTransition.Outcome outcome =
                        PolicyTransition.adopt(allocator, l.checkpoint().state());
                NodeState state = outcome.state();
                LOG.info(
                        "checkpoint {} loaded: {} pods{}",
                        store.file(),
                        state.pods().size(),
                        l.configChanged() ? " (written under another policy)" : "");
                if (l.configChanged()) {
                    events.onNode(
                            EventType.NORMAL,
                            EventReason.POLICY_CHANGED,
                            "the policy changed since the checkpoint was written: "
                                    + state.pods().size()
                                    + " running pods keep their assignments, new pods follow the new policy");
                }
                degraded(outcome);
                yield new Recovered(state, WriteMode.FOLLOWING);
            }
            case CheckpointRead.Rejected r -> {
                String message = r.message() + "; moved to " + r.movedTo()
                        + ", rebuilding from the running pods and the CPUs their containers hold";
                events.onNode(EventType.WARNING, EventReason.of(r.reason()), message);
                status.error(AgentErrorReason.of(r.reason()), message);
                yield new Recovered(allocator.initialState(), WriteMode.REBUILDING);
            }
        };
    }

    private void degraded(PolicyTransition.Outcome outcome) {
        if (outcome.degraded()) {
            String message = "the policy in force conflicts with what running pods hold; they keep it until they "
                    + "end: " + outcome.summary();
            status.condition(ConditionReason.POLICY_CONFLICT, message);
            events.onNode(EventType.WARNING, EventReason.POLICY_CONFLICT, message);
        } else {
            status.condition(ConditionReason.AS_EXPECTED, "no conflicts");
        }
    }

    /**
     * Writes the checkpoint, made durable off this thread ({@link CheckpointSync}); a failure is reported and the
     * agent carries on: the next decision writes again, and so does every reconcile pass until a write succeeds
     * ({@link #catchUp}).
     */
    public void save(NodeState state) {
        try {
            store.replace(new Checkpoint(state, fingerprint, configHash));
            behind = false;
            metrics.checkpointWritten();
            sync.request();
        } catch (UncheckedIOException e) {
            failed(e);
        }
    }

    /** A write or its fsync failed; on the loop thread. */
    private void failed(UncheckedIOException e) {
        behind = true;
        metrics.checkpointWriteFailed();
        status.error(AgentErrorReason.CHECKPOINT_WRITE_FAILED, e.getMessage());
        LOG.error("{}", e.getMessage());
    }

    /**
     * Writes the checkpoint again when the last write failed (a full or read-only state directory that recovered):
     * without it the file would stay behind the state until the next decision, and a restart meanwhile would forget
     * the pods admitted since.
     */
    public void catchUp(NodeState state) {
        if (behind) {
            save(state);
        }
    }

    /** The node left podnuma: the next agent starts without a checkpoint. */
    public void delete() {
        store.delete();
    }

    /** Waits for the fsync still queued: a clean stop leaves the checkpoint durable. */
    @Override
    public void close() {
        sync.close();
    }
}
