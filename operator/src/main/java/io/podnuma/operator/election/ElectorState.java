package io.podnuma.operator.election;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one replica remembers between attempts, on its own monotonic clock ({@code System.nanoTime()}), never on a
 * wall clock.
 *
 * @param observed the Lease as this replica last saw it, and since when it has seen it unchanged
 * @param renewedNanos while this replica leads: when its last successful write of the Lease began
 */
public record ElectorState(Optional<Observation> observed, OptionalLong renewedNanos) {

    public static final ElectorState INITIAL = new ElectorState(Optional.empty(), OptionalLong.empty());

    /** The Lease as stored, first seen so at {@code sinceNanos}. */
    public record Observation(StoredLease lease, long sinceNanos) {
        public Observation {
            Objects.requireNonNull(lease, "lease");
        }
    }

    public ElectorState {
        Objects.requireNonNull(observed, "observed");
        Objects.requireNonNull(renewedNanos, "renewedNanos");
    }

    public boolean leading() {
        return renewedNanos.isPresent();
    }
}
