package io.podnuma.operator.status;

import java.time.Duration;
import java.util.Objects;

/**
 * How the status is judged.
 *
 * @param errorWindow how long an agent's lastError marks its node failing: the agent keeps its last error until a
 *     later one replaces it, so without a window one failed write would mark the node for ever
 */
public record StatusSettings(Duration errorWindow) {

    public static final StatusSettings DEFAULTS = new StatusSettings(Duration.ofMinutes(10));

    public StatusSettings {
        Objects.requireNonNull(errorWindow, "errorWindow");
        if (errorWindow.isNegative()) {
            throw new IllegalArgumentException("errorWindow must not be negative, got " + errorWindow);
        }
    }
}
