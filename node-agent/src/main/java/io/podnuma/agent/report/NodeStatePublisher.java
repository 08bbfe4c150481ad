package io.podnuma.agent.report;

import io.podnuma.crds.v1alpha1.NumaNodeState;
import java.time.Duration;
import java.util.Optional;

/**
 * Publishes the node's {@code NumaNodeState} from any thread without blocking: at most one write per interval, the
 * latest state wins, and an unchanged rendering is not written at all (see {@link NodeStateWriter}).
 */
public final class NodeStatePublisher implements AutoCloseable {

    private final CoalescingPublisher<NumaNodeState> publisher;

    public NodeStatePublisher(NodeStateWriter writer, Duration minInterval) {
        this.publisher = new CoalescingPublisher<>("numanodestate", writer::write, minInterval);
    }

    public void publish(NumaNodeState desired) {
        publisher.publish(desired);
    }

    /** Waits until every published state has been handed to the writer; false on timeout. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return publisher.awaitIdle(timeout);
    }

    /** Requests that changed the object. */
    public long writes() {
        return publisher.writes();
    }

    /** Hand-overs that found the object unchanged and made no request. */
    public long unchanged() {
        return publisher.unchanged();
    }

    public long failures() {
        return publisher.failures();
    }

    public Optional<RuntimeException> lastFailure() {
        return publisher.lastFailure();
    }

    @Override
    public void close() {
        publisher.close();
    }
}
