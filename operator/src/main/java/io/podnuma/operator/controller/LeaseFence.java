package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 * Stops a leader that cannot show it still holds the Lease, and gives the Lease up at a graceful stop. The rule: a
 * replica leads only while the newest {@code renewTime} of its own it has read on the Lease is younger than
 * {@code renewDeadline}; a standby may take over once that time is {@code leaseDuration} old, so the fence fires
 * {@code leaseDuration - renewDeadline} (less the check period) before any takeover.
 *
 * <p>Why the client's elector is not enough: it checks its renew deadline only between two attempts, and one attempt
 * can last far longer than the deadline (the client retries a failed request with a growing backoff, so while the API
 * server is down an attempt waits until it is back). Worse, an attempt stamps {@code renewTime} before it reads the
 * Lease: an acquisition that waited through an outage writes a {@code renewTime} as old as the wait, which every
 * standby reads as expired at once, while the elector calls the new leader's start only now. So the fence never counts
 * from the moment it is told it leads: {@link #leading} reads the Lease first, and the renewals it reads afterwards
 * (on a thread of its own, which may block) move the deadline; a second thread stops leading once it passes.
 */
final class LeaseFence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseFence.class);

    private final KubernetesClient client;
    private final PodnumaOperator.LeaderElection election;
    private final InstantSource clock;
    private final Runnable fence;
    private final Duration period;
    /** The newest renewTime of ours seen on the Lease (the acquisition at first). */
    private final AtomicReference<Instant> confirmed = new AtomicReference<>();

    private final AtomicBoolean stopped = new AtomicBoolean();

    /** @param fence what stops leading (the gauge to 0, then the replica's exit) */
    LeaseFence(KubernetesClient client, PodnumaOperator.LeaderElection election, InstantSource clock, Runnable fence) {
        this.client = client;
        this.election = election;
        this.clock = clock;
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
        try {
            Lease l = client.leases()
                    .inNamespace(election.leaseNamespace())
                    .withName(election.leaseName())
                    .get();
            if (l != null
                    && l.getSpec() != null
                    && election.identity().equals(l.getSpec().getHolderIdentity())
                    && l.getSpec().getRenewTime() != null) {
                return Optional.of(l.getSpec().getRenewTime().toInstant());
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
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

    /**
     * At a graceful stop, once the reconciles have ended: gives the Lease up (no holder), so a standby takes over at
     * its next try instead of after {@code leaseDuration}. The SDK does not (it cancels its elector without a release).
     * A conditional update: when the Lease changed meanwhile (a renewal in flight, a new holder) it is left alone.
     */
    void release() {
        stopped.set(true);
        try {
            Lease l = client.leases()
                    .inNamespace(election.leaseNamespace())
                    .withName(election.leaseName())
                    .get();
            if (l == null
                    || l.getSpec() == null
                    || !election.identity().equals(l.getSpec().getHolderIdentity())) {
                return;
            }
            l.getSpec().setHolderIdentity(null);
            l.getSpec().setLeaseDurationSeconds(1);
            // As the client's own release writes it: no holder, a one-second lease, both times now.
            java.time.ZonedDateTime now = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC);
            l.getSpec().setAcquireTime(now);
            l.getSpec().setRenewTime(now);
            client.leases().inNamespace(election.leaseNamespace()).resource(l).update();
            LOG.info("gave the leader Lease {} up", election.leaseName());
        } catch (RuntimeException e) {
            // A conflict (it changed) or the API server away: the Lease expires by itself.
            LOG.warn("could not give the leader Lease {} up: {}", election.leaseName(), e.getMessage());
        }
    }

    private static void sleep(Duration d) {
        try {
            TimeUnit.MILLISECONDS.sleep(Math.max(1, d.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
