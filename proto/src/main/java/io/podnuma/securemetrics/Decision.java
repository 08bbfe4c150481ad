package io.podnuma.securemetrics;

import java.util.Objects;

/** A verdict and why, in words fit for the response body (never the token). */
public record Decision(Verdict verdict, String reason) {

    public Decision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
    }
}
