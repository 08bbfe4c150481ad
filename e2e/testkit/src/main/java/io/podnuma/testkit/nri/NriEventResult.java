package io.podnuma.testkit.nri;

import com.google.protobuf.Message;
import java.time.Duration;

/**
 * How one runtime event went through the adaptation: answered (with the merged plugin response, the empty message
 * for events that have none) or failed (the error the runtime would fail the CRI call with), and how long the
 * adaptation took, plugins included.
 *
 * @param <M> the response type: {@code CreateContainerResponse}, {@code UpdateContainerResponse},
 *     {@code StopContainerResponse}, or {@code Empty}
 */
public sealed interface NriEventResult<M extends Message> {

    Duration took();

    /** This result as {@link Answered}; an {@link AssertionError} saying why when it failed. */
    default Answered<M> answered() {
        return switch (this) {
            case Answered<M> a -> a;
            case Failed<M> f ->
                throw new AssertionError("the runtime event failed after " + f.took() + ": " + f.error());
        };
    }

    record Answered<M extends Message>(M response, Duration took) implements NriEventResult<M> {}

    record Failed<M extends Message>(String error, Duration took) implements NriEventResult<M> {}
}
