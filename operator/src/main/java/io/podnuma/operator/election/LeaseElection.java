package io.podnuma.operator.election;

import io.podnuma.operator.election.ElectorState.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One attempt of a replica at the Lease: create it, take it, renew it, wait, or stop leading.
 *
 * <p>A standby may take a held Lease only once {@code leaseDuration} has passed on its own monotonic clock since it
 * first saw the Lease as it is now (the same holder, renewTime, transitions and resourceVersion), and only by a write
 * conditional on that resourceVersion. The holder's {@code renewTime} is never compared with this replica's wall
 * clock: with the two clocks apart by more than {@code leaseDuration - renewDeadline}, that comparison lets a standby
 * take the Lease while its holder still leads (the holder stops leading {@code renewDeadline} after its last renewal;
 * the standby would see that renewal as {@code leaseDuration} old too early by the skew). Seeing a renewal happens
 * after it was written, so counting from the sight only ever waits longer than the holder's lease.
 *
 * <p>The wall clock only stamps what this replica writes ({@code acquireTime}, {@code renewTime}): the holder's own
 * fence compares its renewTime with the same clock that stamped it.
 */
public final class LeaseElection {

    private LeaseElection() {}

    /** What this attempt does. */
    public sealed interface Step {}

    /** No Lease yet: create it, held by this replica. */
    public record Create(LeaseRecord lease) implements Step {}

    /** Another holder's lease ran out on this replica's clock, or nobody holds it: take it if still unchanged. */
    public record Acquire(LeaseRecord lease, String expectedVersion) implements Step {}

    /** This replica holds it: renew it if still unchanged. */
    public record Renew(LeaseRecord lease, String expectedVersion) implements Step {}

    /**
     * Nothing to write now.
     *
     * @param mayTakeOverIn how long, on this replica's clock, until another holder's lease runs out; empty when the
     *     Lease could not be read
     */
    public record Wait(Optional<Duration> mayTakeOverIn, String why) implements Step {}

    /** This replica led and must not any more. */
    public record StopLeading(String why) implements Step {}

    public record Decision(ElectorState next, Step step) {}

    /**
     * @param nowNanos this replica's monotonic clock, read after {@code read} returned
     * @param wallNow this replica's wall clock, for the times it writes
     */
    public static Decision decide(Candidate me, ElectorState state, LeaseRead read, long nowNanos, Instant wallNow) {
        Optional<String> overdue = overdue(me, state, nowNanos);
        return switch (read) {
            case LeaseRead.Failed f ->
                overdue.map(o -> stop(state, o + "; the Lease cannot be read: " + f.why()))
                        .orElse(new Decision(
                                state, new Wait(Optional.empty(), "the Lease cannot be read: " + f.why())));
            case LeaseRead.Absent a ->
                state.leading()
                        ? stop(state, "the Lease is gone")
                        : new Decision(
                                state,
                                new Create(new LeaseRecord(
                                        Optional.of(me.identity()),
                                        me.leaseDurationSeconds(),
                                        Optional.of(wallNow),
                                        Optional.of(wallNow),
                                        0)));
            case LeaseRead.Found found -> found(me, state, found.lease(), nowNanos, wallNow, overdue);
        };
    }

    private static Decision found(
            Candidate me,
            ElectorState state,
            StoredLease lease,
            long nowNanos,
            Instant wallNow,
            Optional<String> overdue) {
        Observation seen =
                state.observed().filter(o -> o.lease().equals(lease)).orElse(new Observation(lease, nowNanos));
        ElectorState next = new ElectorState(Optional.of(seen), state.renewedNanos());
        LeaseRecord r = lease.record();
        if (r.heldBy(me.identity())) {
            if (overdue.isPresent()) {
                return stop(next, overdue.get());
            }
            // Also when this replica does not lead yet: a restarted container of the same pod finds its own Lease.
            return new Decision(
                    next,
                    new Renew(
                            new LeaseRecord(
                                    r.holder(),
                                    me.leaseDurationSeconds(),
                                    Optional.of(r.acquireTime().orElse(wallNow)),
                                    Optional.of(wallNow),
                                    r.transitions()),
                            lease.resourceVersion()));
        }
        if (state.leading()) {
            return stop(next, "the Lease names " + r.holder().orElse("no holder") + " now");
        }
        LeaseRecord mine = new LeaseRecord(
                Optional.of(me.identity()),
                me.leaseDurationSeconds(),
                Optional.of(wallNow),
                Optional.of(wallNow),
                r.transitions() + 1);
        if (r.holder().isEmpty()) {
            return new Decision(next, new Acquire(mine, lease.resourceVersion()));
        }
        Duration held = heldFor(me, r);
        Duration unchanged = Duration.ofNanos(nowNanos - seen.sinceNanos());
        if (unchanged.compareTo(held) >= 0) {
            return new Decision(next, new Acquire(mine, lease.resourceVersion()));
        }
        Duration left = held.minus(unchanged);
        return new Decision(
                next,
                new Wait(
                        Optional.of(left),
                        "held by " + r.holder().get() + ", unchanged for " + unchanged.toMillis()
                                + " ms on this replica's clock (" + held.toMillis() + " ms to run out)"));
    }

    private static Decision stop(ElectorState state, String why) {
        return new Decision(new ElectorState(state.observed(), OptionalLong.empty()), new StopLeading(why));
    }

    /**
     * A successful write (create, take or renew) that began at {@code attemptNanos}: this replica leads from then, and
     * has seen the Lease as it wrote it.
     */
    public static ElectorState written(ElectorState state, StoredLease stored, long attemptNanos) {
        return new ElectorState(Optional.of(new Observation(stored, attemptNanos)), OptionalLong.of(attemptNanos));
    }

    /**
     * At a graceful stop: the Lease without a holder, so that a standby takes it at its next attempt instead of
     * {@code leaseDuration} later; empty when the Lease does not name this replica (nothing to give up).
     */
    public static Optional<Renew> release(Candidate me, LeaseRead read, Instant wallNow) {
        if (!(read instanceof LeaseRead.Found(StoredLease lease))
                || !lease.record().heldBy(me.identity())) {
            return Optional.empty();
        }
        // As client-go writes a release: no holder, a one-second lease, both times now.
        return Optional.of(new Renew(
                new LeaseRecord(
                        Optional.empty(),
                        1,
                        Optional.of(wallNow),
                        Optional.of(wallNow),
                        lease.record().transitions()),
                lease.resourceVersion()));
    }

    /**
     * How long another holder's lease lasts: the longer of this replica's setting and what the holder wrote (a holder
     * configured with a longer lease keeps it that long).
     */
    static Duration heldFor(Candidate me, LeaseRecord r) {
        Duration declared = Duration.ofSeconds(r.leaseDurationSeconds());
        Duration mine = me.timings().leaseDuration();
        return declared.compareTo(mine) > 0 ? declared : mine;
    }

    /** While leading: the renew deadline has passed since the last successful write, on the monotonic clock. */
    private static Optional<String> overdue(Candidate me, ElectorState state, long nowNanos) {
        if (!state.leading()) {
            return Optional.empty();
        }
        Duration since = Duration.ofNanos(nowNanos - state.renewedNanos().getAsLong());
        Duration deadline = me.timings().renewDeadline();
        return since.compareTo(deadline) > 0
                ? Optional.of(
                        "no renewal for " + since.toMillis() + " ms (renewDeadline " + deadline.toMillis() + " ms)")
                : Optional.empty();
    }
}
