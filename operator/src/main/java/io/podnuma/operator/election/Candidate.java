package io.podnuma.operator.election;

import io.podnuma.operator.settings.LeaseTimings;
import java.util.Objects;

/** A replica competing for the Lease: the identity it holds it under, and the operator's Lease timings. */
public record Candidate(String identity, LeaseTimings timings) {

    public Candidate {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(timings, "timings");
        if (identity.isEmpty()) {
            throw new IllegalArgumentException("an empty identity reads back as no holder");
        }
    }

    /** {@code leaseDuration} as the Lease carries it, whole seconds rounded up: a standby must never wait less. */
    int leaseDurationSeconds() {
        long ms = timings.leaseDuration().toMillis();
        return (int) Math.max(1, (ms + 999) / 1000);
    }
}
