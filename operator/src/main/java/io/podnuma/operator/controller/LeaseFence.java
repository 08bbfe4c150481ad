package io.podnuma.operator.controller;

import io.podnuma.operator.election.LeasePort;
import io.podnuma.operator.election.LeaseRead;
import io.podnuma.operator.election.LeaseRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a leader that cannot show it still holds the Lease. The rule: a replica leads only while the newest
 * {@code renewTime} of its own it has read on the Lease is younger than {@code renewDeadline}; a standby may take over
 * only once it has seen the Lease unchanged for {@code leaseDuration} (on its own clock, {@code LeaseElection}), which
 * is after that renewal was written, so the fence fires {@code leaseDuration - renewDeadline} (less the check period)
 * before any takeover. Both times compared here are this replica's wall clock: the renewTime it stamped and now.
 *
 * <p>Why the elector's own deadline is not enough: it is checked between two attempts, and one attempt can last far
 * longer than the deadline (the client retries a failed request with a growing backoff, so while the API server is
 * down an attempt waits until it is back). And an attempt stamps {@code renewTime} before its write, which may wait
 * through an outage: such an acquisition lands with a {@code renewTime} as old as the wait. So the fence never counts
 * from the moment it is told it leads: {@link #leading} reads the Lease first, and the renewals it reads afterwards
 * (on a thread of its own, which may block) move the deadline; a second thread stops leading once it passes.
 */
final class LeaseFence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseFence.class);

    private final LeasePort leases;
    private final PodnumaOperator.LeaderElection election;
    private final InstantSource clock;
    private final Runnable fence;
    private final Duration period;
    /** The newest renewTime of ours seen on the Lease (the acquisition at first). */
    private final AtomicReference<Instant> confirmed = new AtomicReference<>();

    private final AtomicBoolean stopped = new AtomicBoolean();

    /** @param fence what stops leading (the gauge to 0, then the replica's exit) */
    LeaseFence(LeasePort leases, PodnumaOperator.LeaderElection election, Runnable fence) {
        this.leases = leases;
        this.election = election;
        this.clock = election.leaseClock();
        this.fence = fence;
        Duration slack = election.timings()
                .leaseDuration()
                .minus(election.timings().renewDeadline())
                .dividedBy(2);
        Duration half = election.timings().retryPeriod().dividedBy(2);
        this.period = slack.compareTo(half) < 0 ? slack : half;
    }

    /**
     * This replica just acquired the Lease: reads it and, when its own {@code renewTime} there is younger than
     * {@code renewDeadline}, starts watching the renewals and returns true (the caller may lead). Otherwise (an
     * acquisition stamped long ago, another holder already, the Lease unreadable) it fences at once and returns false.
     */
    boolean leading() {
        Optional<Instant> renewed = ownRenewTime();
        if (renewed.isEmpty()) {
            stop("the leader Lease " + election.leaseName() + " could not be read as ours right after acquiring it");
            return false;
        }
        confirmed.set(renewed.get());
        Duration age = Duration.between(renewed.get(), clock.instant());
        if (age.compareTo(election.timings().renewDeadline()) > 0) {
            stop("the leader Lease " + election.leaseName() + " was acquired with a renewTime " + age.toMillis()
                    + " ms old (renewDeadline "
                    + election.timings().renewDeadline().toMillis()
                    + " ms): the attempt waited, and a standby may take it over any moment");
            return false;
        }
        Thread.ofPlatform().daemon().name("podnuma-lease-reader").start(this::read);
        Thread.ofPlatform().daemon().name("podnuma-lease-fence").start(this::watch);
        return true;
    }

    /** The Lease's renewTime when this replica holds it; empty when another does or it cannot be read. */
    private Optional<Instant> ownRenewTime() {
        if (leases.read() instanceof LeaseRead.Found(var lease)) {
            LeaseRecord r = lease.record();
            return r.heldBy(election.identity()) ? r.renewTime() : Optional.empty();
        }
        return Optional.empty();
    }

    private void read() {
        while (!stopped.get()) {
            // Empty while the API server is away: no confirmation, the fence decides.
            ownRenewTime().ifPresent(renewed -> confirmed.accumulateAndGet(renewed, (a, b) -> a.isAfter(b) ? a : b));
            sleep(period);
        }
    }

    private void watch() {
        while (!stopped.get()) {
            Duration since = Duration.between(confirmed.get(), clock.instant());
            if (since.compareTo(election.timings().renewDeadline()) > 0) {
                stop("no renewal of the leader Lease " + election.leaseName() + " seen for " + since.toMillis()
                        + " ms (renewDeadline "
                        + election.timings().renewDeadline().toMillis() + " ms)");
                return;
            }
            sleep(period);
        }
    }

    private void stop(String why) {
        LOG.error("{}: stopping to lead", why);
        stopped.set(true);
        fence.run();
    }

    /** The newest renewTime of ours read on the Lease; null before {@link #leading}. */
    Instant confirmedRenewal() {
        return confirmed.get();
    }

    @Override
    public void close() {
        stopped.set(true);
    }

    private static void sleep(Duration d) {
        try {
            TimeUnit.MILLISECONDS.sleep(Math.max(1, d.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
