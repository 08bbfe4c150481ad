package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.operator.kube.KubeLeases;
import io.podnuma.operator.settings.LeaseTimings;
import io.podnuma.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fence against a real API server's Lease, with a clock the test moves: a leader leads only while its own newest
 * {@code renewTime} on the Lease is younger than {@code renewDeadline}, counted from that renewTime and never from the
 * moment the elector says it leads. The failover soak once saw a replica lead while the Lease named another after an
 * API server restart: its acquisition had waited through the outage and was stamped before it.
 */
@ExtendWith(ControlPlaneExtension.class)
class LeaseFenceIT {

    /** The failover soak's timings. */
    static final LeaseTimings TIMINGS =
            new LeaseTimings(Duration.ofSeconds(6), Duration.ofSeconds(3), Duration.ofMillis(500));

    static final String NAMESPACE = "default";
    static final String ME = "fence-me";

    private KubernetesClient client;
    private String leaseName;
    private MutableClock clock;
    private final AtomicInteger fenced = new AtomicInteger();
    private LeaseFence fence;

    @BeforeEach
    void lease(ControlPlane plane) {
        client = plane.client();
        leaseName = "fence-" + UUID.randomUUID().toString().substring(0, 8);
        // Lease times are microseconds; the clock starts on one so that the ages below are exact.
        clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
        fence = new LeaseFence(
                new KubeLeases(client, NAMESPACE, leaseName),
                new PodnumaOperator.LeaderElection(leaseName, NAMESPACE, ME, TIMINGS, clock, () -> {}),
                fenced::incrementAndGet);
    }

    @AfterEach
    void cleanUp() {
        fence.close();
        client.leases().inNamespace(NAMESPACE).withName(leaseName).delete();
    }

    @Test
    void anAcquisitionStampedBeforeAnOutageLongerThanTheLeaseFencesAtOnce() {
        // What the elector writes when its attempt waited 7 s for the API server: renewTime from before the wait.
        writeLease(ME, clock.instant().minusSeconds(7));

        assertThat(fence.leading()).as("may lead").isFalse();
        assertThat(fenced).hasValue(1);
    }

    @Test
    void theDeadlineCountsFromTheLeasesRenewTimeNotFromWhenTheElectorSaysItLeads() {
        writeLease(ME, clock.instant().minusSeconds(2));

        assertThat(fence.leading()).as("may lead").isTrue();
        assertThat(fenced).hasValue(0);

        // 3.5 s after the renewTime, 1.5 s after the callback: past the deadline.
        clock.advance(Duration.ofMillis(1500));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(fenced).hasValue(1));
    }

    @Test
    void renewalsReadOnTheLeaseMoveTheDeadline() {
        Instant acquired = clock.instant();
        writeLease(ME, acquired);
        assertThat(fence.leading()).isTrue();

        clock.advance(Duration.ofSeconds(2));
        writeLease(ME, acquired.plusSeconds(2));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(fence.confirmedRenewal()).isEqualTo(acquired.plusSeconds(2)));
        // 4 s after the acquisition, 2 s after the renewal: still leading.
        clock.advance(Duration.ofSeconds(2));
        // Only the fence's watch reads the clock now; its second reading after the move comes after it compared the
        // first one with the deadline, so a fence counting from anything older than the renewal has fired by then
        // (and, fired, reads no more).
        long before = clock.reads();
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.reads() >= before + 2 || fenced.get() > 0);
        assertThat(fenced).as("fenced 2 s after a renewal").hasValue(0);

        clock.advance(Duration.ofMillis(1500));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(fenced).hasValue(1));
    }

    @Test
    void aLeaseAnotherReplicaHoldsAlreadyFencesAtOnce() {
        writeLease("fence-other", clock.instant());

        assertThat(fence.leading()).isFalse();
        assertThat(fenced).hasValue(1);
    }

    private void writeLease(String holder, Instant renewed) {
        ZonedDateTime at = ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC);
        Lease current =
                client.leases().inNamespace(NAMESPACE).withName(leaseName).get();
        Lease lease = current != null
                ? current
                : new LeaseBuilder()
                        .withNewMetadata()
                        .withName(leaseName)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewSpec()
                        .withAcquireTime(at)
                        .endSpec()
                        .build();
        lease.getSpec().setHolderIdentity(holder);
        lease.getSpec().setLeaseDurationSeconds((int) TIMINGS.leaseDuration().toSeconds());
        lease.getSpec().setRenewTime(at);
        if (current == null) {
            client.resource(lease).create();
        } else {
            client.resource(lease).update();
        }
    }
}
