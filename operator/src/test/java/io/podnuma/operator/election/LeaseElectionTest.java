package io.podnuma.operator.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.operator.election.LeaseElection.Acquire;
import io.podnuma.operator.election.LeaseElection.Create;
import io.podnuma.operator.election.LeaseElection.Decision;
import io.podnuma.operator.election.LeaseElection.Renew;
import io.podnuma.operator.election.LeaseElection.StopLeading;
import io.podnuma.operator.election.LeaseElection.Wait;
import io.podnuma.operator.settings.LeaseTimings;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The take-over decision with a fake monotonic clock (nanoseconds the test names) and wall clocks skewed against the
 * holder's. The timings are the failover soak's: a 6 s lease and a 3 s renew deadline, so a standby whose wall clock
 * runs more than 3 s ahead would, by comparing the holder's renewTime with it, take the Lease while the holder leads.
 */
class LeaseElectionTest {

    static final LeaseTimings TIMINGS =
            new LeaseTimings(Duration.ofSeconds(6), Duration.ofSeconds(3), Duration.ofMillis(500));
    static final Candidate A = new Candidate("a", TIMINGS);
    static final Candidate B = new Candidate("b", TIMINGS);
    /** The real time, and a's wall clock. */
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    static long s(double seconds) {
        return Math.round(seconds * 1e9);
    }

    static LeaseRead held(String holder, Instant acquired, Instant renewed, int transitions, String version) {
        return new LeaseRead.Found(new StoredLease(
                new LeaseRecord(
                        Optional.ofNullable(holder), 6, Optional.of(acquired), Optional.of(renewed), transitions),
                version));
    }

    static LeaseRead heldByA(Instant renewed, String version) {
        return held("a", T0.minusSeconds(60), renewed, 3, version);
    }

    @Test
    void aStandbyTenSecondsAheadDoesNotTakeOverALeaseRenewedOneSecondAgoByItsOwnObservation() {
        Duration ahead = Duration.ofSeconds(10);
        // b sees a's renewal (stamped T0 by a) at once, then again unchanged 1 s later.
        Decision first = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0, "7"), s(100), T0.plus(ahead));
        Decision second = LeaseElection.decide(
                B, first.next(), heldByA(T0, "7"), s(101), T0.plusSeconds(1).plus(ahead));

        // renewTime + leaseDuration (T0 + 6 s) is 5 s behind b's wall clock: a wall-clock rule would take it.
        assertThat(first.step()).isInstanceOf(Wait.class);
        assertThat(second.step()).isEqualTo(new Wait(Optional.of(Duration.ofSeconds(5)), waitWhy(1000)));
    }

    @Test
    void aStandbyBehindTakesOverOnceLeaseDurationHasPassedOnItsOwnClockConditionalOnTheVersionItSaw() {
        Duration behind = Duration.ofSeconds(-10);
        Decision first = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0, "7"), s(100), T0.plus(behind));
        Decision early = LeaseElection.decide(
                B,
                first.next(),
                heldByA(T0, "7"),
                s(105.999),
                T0.plusMillis(5999).plus(behind));
        Instant bNow = T0.plusSeconds(6).plus(behind);
        Decision due = LeaseElection.decide(B, early.next(), heldByA(T0, "7"), s(106), bNow);

        // To b's clock the renewTime is 10 s in the future; it is ignored either way.
        assertThat(early.step()).isInstanceOf(Wait.class);
        assertThat(due.step())
                .isEqualTo(new Acquire(
                        new LeaseRecord(Optional.of("b"), 6, Optional.of(bNow), Optional.of(bNow), 4), "7"));
    }

    @Test
    void everyChangeSeenStartsTheCountAgain() {
        Decision v7 = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0, "7"), s(0), T0);
        Decision v8 = LeaseElection.decide(B, v7.next(), heldByA(T0.plusSeconds(4), "8"), s(4), T0.plusSeconds(4));
        Decision at9 = LeaseElection.decide(B, v8.next(), heldByA(T0.plusSeconds(4), "8"), s(9), T0.plusSeconds(9));
        Decision at10 = LeaseElection.decide(B, at9.next(), heldByA(T0.plusSeconds(4), "8"), s(10), T0.plusSeconds(10));

        assertThat(at9.step()).isEqualTo(new Wait(Optional.of(Duration.ofSeconds(1)), waitWhy(5000)));
        assertThat(at10.step()).isInstanceOf(Acquire.class);
        assertThat(((Acquire) at10.step()).expectedVersion()).isEqualTo("8");
    }

    @Test
    void onlyTheResourceVersionChangedStillCountsAsAChange() {
        // Somebody touched the Lease (a label): the same spec, a new version. Seen as a change: it only delays.
        Decision v7 = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0, "7"), s(0), T0);
        Decision v9 = LeaseElection.decide(B, v7.next(), heldByA(T0, "9"), s(5), T0.plusSeconds(5));
        Decision at6 = LeaseElection.decide(B, v9.next(), heldByA(T0, "9"), s(6), T0.plusSeconds(6));

        assertThat(at6.step()).isEqualTo(new Wait(Optional.of(Duration.ofSeconds(5)), waitWhy(1000)));
    }

    @Test
    void aLeaseRenewedAnHourAgoByItsWallClockIsStillWaitedForAFullLeaseDurationFromFirstSight() {
        // After a restart this replica has seen nothing yet: the holder's renewTime tells it nothing it can trust.
        Decision first = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0.minusSeconds(3600), "7"), s(50), T0);

        assertThat(first.step()).isEqualTo(new Wait(Optional.of(Duration.ofSeconds(6)), waitWhy(0)));
    }

    @Test
    void aLongerLeaseTheHolderWroteIsWaitedFor() {
        LeaseRead longer = new LeaseRead.Found(
                new StoredLease(new LeaseRecord(Optional.of("a"), 15, Optional.of(T0), Optional.of(T0), 0), "7"));
        Decision first = LeaseElection.decide(B, ElectorState.INITIAL, longer, s(0), T0);
        Decision at14 = LeaseElection.decide(B, first.next(), longer, s(14.9), T0.plusMillis(14900));
        Decision at15 = LeaseElection.decide(B, at14.next(), longer, s(15), T0.plusSeconds(15));

        assertThat(at14.step()).isInstanceOf(Wait.class);
        assertThat(at15.step()).isInstanceOf(Acquire.class);
    }

    @Test
    void aLeaseNobodyHoldsIsTakenAtOnceAndNoLeaseIsCreated() {
        Instant now = T0.plusSeconds(1);
        Decision released = LeaseElection.decide(B, ElectorState.INITIAL, held(null, T0, T0, 3, "7"), s(0), now);
        Decision none = LeaseElection.decide(B, ElectorState.INITIAL, new LeaseRead.Absent(), s(0), now);

        assertThat(released.step())
                .isEqualTo(
                        new Acquire(new LeaseRecord(Optional.of("b"), 6, Optional.of(now), Optional.of(now), 4), "7"));
        assertThat(none.step())
                .isEqualTo(new Create(new LeaseRecord(Optional.of("b"), 6, Optional.of(now), Optional.of(now), 0)));
    }

    @Test
    void theHolderRenewsWithItsOwnClockKeepingItsAcquireTimeAndTransitions() {
        Instant acquired = T0.minusSeconds(60);
        ElectorState leading = LeaseElection.written(
                ElectorState.INITIAL,
                new StoredLease(new LeaseRecord(Optional.of("a"), 6, Optional.of(acquired), Optional.of(T0), 3), "7"),
                s(0));
        Instant aNow = T0.plusSeconds(2);
        Decision d = LeaseElection.decide(A, leading, heldByA(T0, "7"), s(2), aNow);

        assertThat(d.step())
                .isEqualTo(new Renew(
                        new LeaseRecord(Optional.of("a"), 6, Optional.of(acquired), Optional.of(aNow), 3), "7"));
        assertThat(d.next().leading()).isTrue();
    }

    @Test
    void aLeaderThatReadsAnotherHolderStopsLeading() {
        ElectorState leading = leadingSince(0);
        Decision d = LeaseElection.decide(A, leading, held("b", T0, T0, 4, "9"), s(1), T0.plusSeconds(1));

        assertThat(d.step()).isEqualTo(new StopLeading("the Lease names b now"));
        assertThat(d.next().leading()).isFalse();
    }

    @Test
    void aLeaderStopsOnceRenewDeadlinePassedOnItsMonotonicClockWhateverItsWallClockSays() {
        ElectorState leading = leadingSince(s(10));
        LeaseRead down = new LeaseRead.Failed("connection refused");
        // The wall clock stepped back an hour meanwhile: the deadline does not move.
        Instant wall = T0.minusSeconds(3600);

        Decision before = LeaseElection.decide(A, leading, down, s(13), wall);
        Decision after = LeaseElection.decide(A, before.next(), down, s(13.001), wall);
        Decision readable = LeaseElection.decide(A, leading, heldByA(T0, "7"), s(13.001), wall);

        assertThat(before.step()).isEqualTo(new Wait(Optional.empty(), "the Lease cannot be read: connection refused"));
        assertThat(after.step())
                .isEqualTo(
                        new StopLeading(
                                "no renewal for 3001 ms (renewDeadline 3000 ms); the Lease cannot be read: connection refused"));
        assertThat(readable.step()).isInstanceOf(StopLeading.class);
    }

    @Test
    void aStandbyThatCannotReadWaitsAndKeepsItsCount() {
        Decision seen = LeaseElection.decide(B, ElectorState.INITIAL, heldByA(T0, "7"), s(0), T0);
        Decision down = LeaseElection.decide(B, seen.next(), new LeaseRead.Failed("503"), s(3), T0);
        Decision back = LeaseElection.decide(B, down.next(), heldByA(T0, "7"), s(6), T0);

        assertThat(down.step()).isEqualTo(new Wait(Optional.empty(), "the Lease cannot be read: 503"));
        assertThat(back.step()).isInstanceOf(Acquire.class);
    }

    @Test
    void aReleaseClearsTheHolderOnlyWhenTheLeaseNamesThisReplica() {
        Instant now = T0.plusSeconds(1);
        assertThat(LeaseElection.release(A, heldByA(T0, "7"), now))
                .contains(new Renew(new LeaseRecord(Optional.empty(), 1, Optional.of(now), Optional.of(now), 3), "7"));
        assertThat(LeaseElection.release(B, heldByA(T0, "7"), now)).isEmpty();
        assertThat(LeaseElection.release(A, new LeaseRead.Absent(), now)).isEmpty();
    }

    private static ElectorState leadingSince(long nanos) {
        return LeaseElection.written(
                ElectorState.INITIAL,
                new StoredLease(new LeaseRecord(Optional.of("a"), 6, Optional.of(T0), Optional.of(T0), 3), "7"),
                nanos);
    }

    private static String waitWhy(long unchangedMs) {
        return "held by a, unchanged for " + unchangedMs + " ms on this replica's clock (6000 ms to run out)";
    }
}
