package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a leader that cannot show it still holds the Lease, and gives the Lease up at a graceful stop. The client's leader elector checks its renew deadline only
 * between two renewal attempts, and one attempt can last far longer than the deadline: the client retries a failed
 * request with a growing backoff, so while the API server is down an attempt waits until it is back. A standby that
 * reads the Lease then finds it expired and takes it over while the old leader still reconciles (the operator's
 * failover soak saw two leaders this way). So the leader reads its own Lease (on a thread of its own, which may block)
 * and a second thread stops leading once the last renewal it could see is older than {@code renewDeadline}: that is
 * before {@code leaseDuration}, when a standby may take over, by {@code leaseDuration - renewDeadline} less the check
 * period.
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

    /** From now on (this replica just acquired the Lease) the renewals must keep coming. */
    void leading() {
        confirmed.set(clock.instant());
        Thread.ofPlatform().daemon().name("podnuma-lease-reader").start(this::read);
        Thread.ofPlatform().daemon().name("podnuma-lease-fence").start(this::watch);
    }

    private void read() {
        while (!stopped.get()) {
            try {
                Lease l = client.leases()
                        .inNamespace(election.leaseNamespace())
                        .withName(election.leaseName())
                        .get();
                if (l != null
                        && l.getSpec() != null
                        && election.identity().equals(l.getSpec().getHolderIdentity())
                        && l.getSpec().getRenewTime() != null) {
                    Instant renewed = l.getSpec().getRenewTime().toInstant();
                    confirmed.accumulateAndGet(renewed, (a, b) -> a.isAfter(b) ? a : b);
                }
            } catch (RuntimeException e) {
                // the API server is away: no confirmation, the fence decides
            }
            sleep(period);
        }
    }

    private void watch() {
        while (!stopped.get()) {
            Duration since = Duration.between(confirmed.get(), clock.instant());
            if (since.compareTo(election.timings().renewDeadline()) > 0) {
                LOG.error(
                        "no renewal of the leader Lease {} seen for {} ms (renewDeadline {} ms): stopping to lead",
                        election.leaseName(),
                        since.toMillis(),
                        election.timings().renewDeadline().toMillis());
                stopped.set(true);
                fence.run();
                return;
            }
            sleep(period);
        }
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
