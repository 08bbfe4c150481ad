package io.podnuma.operator.election;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Lease's spec says. The times are its holder's wall clock: another replica can compare them with its own only
 * up to the skew between the two machines, so {@link LeaseElection} never does.
 *
 * @param holder empty when nobody holds it (never held, or given up)
 * @param leaseDurationSeconds how long its holder says it holds it without a renewal
 * @param acquireTime when its holder took it; empty on a Lease no elector wrote
 * @param renewTime when its holder last renewed it
 * @param transitions how often it changed hands
 */
public record LeaseRecord(
        Optional<String> holder,
        int leaseDurationSeconds,
        Optional<Instant> acquireTime,
        Optional<Instant> renewTime,
        int transitions) {

    public LeaseRecord {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(acquireTime, "acquireTime");
        Objects.requireNonNull(renewTime, "renewTime");
        // An empty holderIdentity is how a release reads back: nobody holds it.
        holder = holder.filter(h -> !h.isEmpty());
    }

    public boolean heldBy(String identity) {
        return holder.filter(identity::equals).isPresent();
    }
}
