package io.podnuma.testkit.nri;

import java.time.Duration;

/**
 * How one runtime event went through the adaptation: answered (with the merged plugin response, {@link NriJson#EMPTY}
 * for events that have none) or failed (the error the runtime would fail the CRI call with), and how long the
 * adaptation took, plugins included.
 */
public sealed interface NriEventResult {

    Duration took();

    /** This result as {@link Answered}; an {@link AssertionError} saying why when it failed. */
    default Answered answered() {
        return switch (this) {
            case Answered a -> a;
            case Failed f -> throw new AssertionError("the runtime event failed after " + f.took() + ": " + f.error());
        };
    }

    record Answered(NriJson response, Duration took) implements NriEventResult {}

    record Failed(String error, Duration took) implements NriEventResult {}
}
