package io.podnuma.operator.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.monitoring.AggregatedMetrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.podnuma.operator.reconcile.ReconcileSettings;
import io.podnuma.operator.settings.LeaseTimings;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running operator: the SDK's {@link Operator} with the policy reconciler, its metrics (JOSDK's reconcile
 * counters and timers without per-resource tags, {@link PolicyNodeGauges} and {@link #LEADER_GAUGE}) and, when asked,
 * leader election on a Lease so that only one of several replicas reconciles.
 */
public final class PodnumaOperator implements AutoCloseable {

    /** {@code podnuma_operator_leader}: 1 while this replica leads (holds the Lease and reconciles), else 0. */
    public static final String LEADER_GAUGE = "podnuma.operator.leader";

    /**
     * The Lease a leader holds.
     *
     * @param timings its lease duration, renew deadline and retry period
     * @param lostLeadership called when this replica stops leading, at shutdown too; it must end the process unless
     *     the process is stopping anyway (a replica that lost the Lease must not go on reconciling). The SDK's own
     *     exit is not used: it would call {@code System.exit} inside the shutdown hook, which never returns.
     */
    public record LeaderElection(
            String leaseName, String leaseNamespace, String identity, LeaseTimings timings, Runnable lostLeadership) {}

    /**
     * Reconciles at once. Each one assigns every node (a candidate per node, labels copied), so with the SDK's
     * default of 50 threads and 5,000 nodes the copies alone filled a 192 MiB heap (the scale bench,
     * benchmarks/README.md); a few threads keep the two cores an operator gets busy just as well.
     */
    static final int RECONCILE_THREADS = 4;

    private final Operator operator;
    private final AtomicInteger leading;
    private final Optional<LeaseFence> fence;
    private final ReconcilePasses passes;

    private PodnumaOperator(
            Operator operator, AtomicInteger leading, Optional<LeaseFence> fence, ReconcilePasses passes) {
        this.operator = operator;
        this.leading = leading;
        this.fence = fence;
        this.passes = passes;
    }

    /** Starts reconciling (or, with leader election, starts trying to lead); returns once the informers are synced. */
    public static PodnumaOperator start(
            KubernetesClient client,
            ReconcileSettings settings,
            Optional<LeaderElection> leaderElection,
            MeterRegistry registry,
            InstantSource clock,
            String instance) {
        // Without leader election the one replica leads from the start.
        AtomicInteger leading = new AtomicInteger(leaderElection.isPresent() ? 0 : 1);
        Gauge.builder(LEADER_GAUGE, leading, AtomicInteger::get)
                .description("1 while this operator replica leads (holds the leader Lease and reconciles), else 0")
                .register(registry);
        // Stops leading when no renewal shows for renewDeadline, whatever the elector's attempt waits for. The wall
        // clock: the Lease's renewTime is the wall clock's.
        AtomicReference<LeaseFence> fence = new AtomicReference<>();
        leaderElection.ifPresent(le -> fence.set(new LeaseFence(client, le, InstantSource.system(), () -> {
            leading.set(0);
            le.lostLeadership().run();
        })));
        ReconcilePasses passes = new ReconcilePasses();
        Operator operator = new Operator(o -> {
            o.withKubernetesClient(client)
                    .withCloseClientOnStop(false)
                    .withMetrics(new AggregatedMetrics(List.of(
                            MicrometerMetrics.withoutPerResourceMetrics(withSdkDescriptions(registry)), passes)))
                    .withReconciliationTerminationTimeout(Duration.ofSeconds(10))
                    .withConcurrentReconciliationThreads(RECONCILE_THREADS);
            leaderElection.ifPresent(le -> o.withLeaderElectionConfiguration(new LeaderElectionConfiguration(
                    le.leaseName(),
                    le.leaseNamespace(),
                    le.timings().leaseDuration(),
                    le.timings().renewDeadline(),
                    le.timings().retryPeriod(),
                    le.identity(),
                    new LeaderCallbacks(
                            () -> {
                                // Runs before the SDK starts reconciling; a stale acquisition fences (the process
                                // ends) before that.
                                if (fence.get().leading()) {
                                    leading.set(1);
                                }
                            },
                            () -> {
                                leading.set(0);
                                fence.get().close();
                                le.lostLeadership().run();
                            },
                            leader -> {}),
                    false)));
        });
        operator.register(new PolicyReconciler(settings, clock, instance, new PolicyNodeGauges(registry)));
        operator.start();
        return new PodnumaOperator(operator, leading, Optional.ofNullable(fence.get()), passes);
    }

    /** The reconciles of {@code policy} this operator has ended so far. */
    ReconcilePasses.Count passes(String policy) {
        return passes.of(policy);
    }

    /** Whether the informers are healthy (what /readyz reports). */
    public boolean healthy() {
        return operator.getRuntimeInfo().allEventSourcesAreHealthy();
    }

    /**
     * Stops reconciling, letting running reconciles finish (up to 10 s), then gives the Lease up if this replica led.
     * The gauge says 0 from the start of the stop, so a standby's 1 never overlaps this replica's 1.
     */
    @Override
    public void close() {
        boolean led = leading.getAndSet(0) == 1;
        operator.stop();
        if (led) {
            fence.ifPresent(LeaseFence::release);
        }
    }

    /** The SDK's meters get a description (HELP) before it registers any. */
    private static MeterRegistry withSdkDescriptions(MeterRegistry registry) {
        registry.config().meterFilter(new SdkMeterDescriptions());
        return registry;
    }
}
