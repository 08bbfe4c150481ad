package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.operator.election.Candidate;
import io.podnuma.operator.election.LeasePort;
import io.podnuma.operator.election.LeaseRead;
import io.podnuma.operator.election.LeaseRecord;
import io.podnuma.operator.election.LeaseWrite;
import io.podnuma.operator.election.StoredLease;
import io.podnuma.operator.settings.LeaseTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Replicas whose wall clocks disagree, each with a {@link LeaseElector}, on one Lease kept in memory with the API
 * server's rules (a resourceVersion per write, 409 on a stale one). The test owns the time: one monotonic clock, and
 * each replica's wall clock that clock plus its offset. Each replica attempts every 500 ms of that time (the soak's
 * retry period, without the jitter); nothing sleeps.
 */
class LeaseElectorTest {

    static final LeaseTimings TIMINGS =
            new LeaseTimings(Duration.ofSeconds(6), Duration.ofSeconds(3), Duration.ofMillis(500));
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final long STEP = Duration.ofMillis(500).toNanos();

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final MemoryLease lease = new MemoryLease();

    /** One replica: its elector and whether it leads, as its callbacks say. */
    final class Replica implements LeaseElector.Leadership {
        final String name;
        final LeasePort port;
        final LeaseElector elector;
        boolean leads;
        int starts;
        final List<String> stops = new ArrayList<>();

        Replica(String name, Duration wallOffset, LeasePort port) {
            this.name = name;
            this.port = port;
            InstantSource wall = () -> T0.plusNanos(nanos.get()).plus(wallOffset);
            this.elector = new LeaseElector(port, new Candidate(name, TIMINGS), nanos::get, wall, this);
        }

        @Override
        public void start() {
            leads = true;
            starts++;
        }

        @Override
        public void stop(String why) {
            leads = false;
            stops.add(why);
        }
    }

    @Test
    void replicasWithWallClocksTenSecondsApartNeverLeadTogetherAndTheOneAheadTakesOverOnlyAfterAPartition() {
        Partitionable aPort = new Partitionable(lease);
        Replica a = new Replica("a", Duration.ofSeconds(-5), aPort);
        Replica b = new Replica("b", Duration.ofSeconds(5), lease);
        a.elector.attempt();
        assertThat(a.leads).as("a created the Lease").isTrue();

        // A minute of renewals: b's wall clock sees each renewTime as 10 s old, more than the 6 s lease.
        int steps = 0;
        for (; steps < 120; steps++) {
            tick(a, b);
            assertThat(a.leads && b.leads).as("two leaders at step " + steps).isFalse();
        }
        assertThat(b.starts).as("b took the Lease while a renewed it").isZero();

        // a is cut off from the API server: it stops leading after renewDeadline on its own clock, and b takes over
        // leaseDuration after it last saw a renewal, on b's clock.
        aPort.partitioned = true;
        long cut = nanos.get();
        long aStopped = -1;
        long bStarted = -1;
        while (bStarted < 0 && steps++ < 1000) {
            tick(a, b);
            assertThat(a.leads && b.leads).as("two leaders at step " + steps).isFalse();
            if (!a.leads && aStopped < 0) {
                aStopped = nanos.get() - cut;
            }
            if (b.leads) {
                bStarted = nanos.get() - cut;
            }
        }
        assertThat(a.stops).hasSize(1);
        assertThat(a.stops.getFirst()).startsWith("no renewal for 3500 ms (renewDeadline 3000 ms)");
        // a's last renewal landed just before the cut, and b saw it in the same step: 6 s later, to the step.
        assertThat(Duration.ofNanos(aStopped)).isEqualTo(Duration.ofMillis(3500));
        assertThat(Duration.ofNanos(bStarted)).isEqualTo(Duration.ofMillis(6000));
        assertThat(lease.current().orElseThrow().record().transitions()).isEqualTo(1);
    }

    @Test
    void anAcquisitionLosesToARenewalThatLandsBetweenItsReadAndItsWriteAndWaitsAFullLeaseAgain() {
        Replica a = new Replica("a", Duration.ZERO, lease);
        a.elector.attempt();
        // a's next renewal is slow: it lands while b's take-over is under way.
        AtomicBoolean landed = new AtomicBoolean();
        Replica b = new Replica("b", Duration.ofSeconds(10), new BeforeWrite(lease, () -> {
            if (landed.compareAndSet(false, true)) {
                StoredLease now = lease.current().orElseThrow();
                lease.update(
                        new LeaseRecord(
                                Optional.of("a"),
                                6,
                                now.record().acquireTime(),
                                Optional.of(T0.plusNanos(nanos.get())),
                                0),
                        now.resourceVersion());
            }
        }));
        b.elector.attempt();
        nanos.addAndGet(Duration.ofSeconds(6).toNanos());

        b.elector.attempt();

        assertThat(landed).isTrue();
        assertThat(b.starts).isZero();
        assertThat(lease.current().orElseThrow().record().holder()).contains("a");
        // b sees the renewal at its next attempt, and counts a full lease from there.
        nanos.addAndGet(STEP);
        b.elector.attempt();
        nanos.addAndGet(Duration.ofMillis(5500).toNanos());
        b.elector.attempt();
        assertThat(b.leads).as("5.5 s after it saw the renewal").isFalse();
        nanos.addAndGet(STEP);
        b.elector.attempt();
        assertThat(b.leads).as("6 s after it saw the renewal").isTrue();
    }

    @Test
    void aReleasedLeaseIsTakenAtTheNextAttempt() {
        Replica a = new Replica("a", Duration.ofSeconds(-5), lease);
        Replica b = new Replica("b", Duration.ofSeconds(5), lease);
        a.elector.attempt();
        tick(a, b);

        a.elector.close();
        a.elector.release();
        nanos.addAndGet(STEP);
        b.elector.attempt();

        assertThat(b.leads).isTrue();
        assertThat(lease.current().orElseThrow().record().transitions()).isEqualTo(1);
        assertThat(a.elector.attempt()).as("a closed elector attempts nothing").isFalse();
    }

    @Test
    void aLeaderThatFindsAnotherHolderStopsAndAttemptsNoMore() {
        Replica a = new Replica("a", Duration.ZERO, lease);
        a.elector.attempt();
        StoredLease now = lease.current().orElseThrow();
        lease.update(new LeaseRecord(Optional.of("c"), 6, Optional.of(T0), Optional.of(T0), 1), now.resourceVersion());

        nanos.addAndGet(STEP);
        boolean goesOn = a.elector.attempt();

        assertThat(goesOn).isFalse();
        assertThat(a.stops).containsExactly("the Lease names c now");
        assertThat(lease.current().orElseThrow().record().holder()).contains("c");
    }

    private void tick(Replica... replicas) {
        nanos.addAndGet(STEP);
        for (Replica r : replicas) {
            r.elector.attempt();
        }
    }

    /** One Lease as the API server keeps it. */
    static final class MemoryLease implements LeasePort {
        private Optional<StoredLease> stored = Optional.empty();
        private long version = 100;

        Optional<StoredLease> current() {
            return stored;
        }

        @Override
        public synchronized LeaseRead read() {
            return stored.<LeaseRead>map(LeaseRead.Found::new).orElse(new LeaseRead.Absent());
        }

        @Override
        public synchronized LeaseWrite create(LeaseRecord record) {
            if (stored.isPresent()) {
                return new LeaseWrite.Conflict("already exists");
            }
            stored = Optional.of(new StoredLease(record, String.valueOf(++version)));
            return new LeaseWrite.Stored(stored.get());
        }

        @Override
        public synchronized LeaseWrite update(LeaseRecord record, String expectedVersion) {
            if (stored.isEmpty() || !stored.get().resourceVersion().equals(expectedVersion)) {
                return new LeaseWrite.Conflict("the object has been modified");
            }
            stored = Optional.of(new StoredLease(record, String.valueOf(++version)));
            return new LeaseWrite.Stored(stored.get());
        }
    }

    /** A replica's way to the Lease, which the test can cut. */
    static final class Partitionable implements LeasePort {
        private final LeasePort to;
        volatile boolean partitioned;

        Partitionable(LeasePort to) {
            this.to = to;
        }

        @Override
        public LeaseRead read() {
            return partitioned ? new LeaseRead.Failed("partitioned") : to.read();
        }

        @Override
        public LeaseWrite create(LeaseRecord record) {
            return partitioned ? new LeaseWrite.Failed("partitioned") : to.create(record);
        }

        @Override
        public LeaseWrite update(LeaseRecord record, String expectedVersion) {
            return partitioned ? new LeaseWrite.Failed("partitioned") : to.update(record, expectedVersion);
        }
    }

    /** Runs something just before each write goes through: what lands while a request is under way. */
    static final class BeforeWrite implements LeasePort {
        private final LeasePort to;
        private final Runnable meanwhile;

        BeforeWrite(LeasePort to, Runnable meanwhile) {
            this.to = to;
            this.meanwhile = meanwhile;
        }

        @Override
        public LeaseRead read() {
            return to.read();
        }

        @Override
        public LeaseWrite create(LeaseRecord record) {
            meanwhile.run();
            return to.create(record);
        }

        @Override
        public LeaseWrite update(LeaseRecord record, String expectedVersion) {
            meanwhile.run();
            return to.update(record, expectedVersion);
        }
    }
}
