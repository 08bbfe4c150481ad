package io.podnuma.operator.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.javaoperatorsdk.operator.api.monitoring.AggregatedMetrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.podnuma.operator.election.Candidate;
import io.podnuma.operator.kube.KubeLeases;
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
 *
 * <p>With leader election the SDK's own is not used: its elector (the client's) lets a standby take the Lease by
 * comparing the holder's renewTime with the standby's wall clock. {@link LeaseElector} decides instead, and this class
 * does what the SDK's start does with leader election on: the informers start (and sync) on every replica, the event
 * processing only once this replica leads.
 */
public final class PodnumaOperator implements AutoCloseable {

    /** {@code podnuma_operator_leader}: 1 while this replica leads (holds the Lease and reconciles), else 0. */
    public static final String LEADER_GAUGE = "podnuma.operator.leader";

    /**
     * The Lease a leader holds.
     *
     * @param timings its lease duration, renew deadline and retry period
     * @param leaseClock the wall clock of the times this replica writes on the Lease and of its fence (the system's;
     *     a test skews it per replica)
     * @param lostLeadership called when this replica stops leading, at shutdown too; it must end the process unless
     *     the process is stopping anyway (a replica that lost the Lease must not go on reconciling). The SDK's own
     *     exit is not used: it would call {@code System.exit} inside the shutdown hook, which never returns.
     */
    public record LeaderElection(
            String leaseName,
            String leaseNamespace,
            String identity,
            LeaseTimings timings,
            InstantSource leaseClock,
            Runnable lostLeadership) {}

    /**
     * Reconciles at once. Each one assigns every node (a candidate per node, labels copied), so with the SDK's
     * default of 50 threads and 5,000 nodes the copies alone filled a 192 MiB heap (the scale bench,
     * benchmarks/README.md); a few threads keep the two cores an operator gets busy just as well.
     */
    static final int RECONCILE_THREADS = 4;

    private final Operator operator;
    private final Controller<?> controller;
    private final AtomicInteger leading;
    private final Optional<Election> election;

    /** Leader election's parts, and the lock that keeps a takeover from starting while the operator stops. */
    private record Election(LeaseElector elector, LeaseFence fence, Object lock) {}

    private final ReconcilePasses passes;

    private volatile boolean closing;

    private PodnumaOperator(
            Operator operator,
            Controller<?> controller,
            AtomicInteger leading,
            Optional<Election> election,
            ReconcilePasses passes) {
        this.operator = operator;
        this.controller = controller;
        this.leading = leading;
        this.election = election;
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
        ReconcilePasses passes = new ReconcilePasses();
        Operator operator = new Operator(o -> o.withKubernetesClient(client)
                .withCloseClientOnStop(false)
                .withMetrics(new AggregatedMetrics(
                        List.of(MicrometerMetrics.withoutPerResourceMetrics(withSdkDescriptions(registry)), passes)))
                .withReconciliationTerminationTimeout(Duration.ofSeconds(10))
                .withConcurrentReconciliationThreads(RECONCILE_THREADS));
        RegisteredController<?> registered =
                operator.register(new PolicyReconciler(settings, clock, instance, new PolicyNodeGauges(registry)));
        // The SDK's Operator.register makes a Controller; its start(boolean) and startEventProcessing() are public.
        Controller<?> controller = (Controller<?>) registered;
        if (leaderElection.isEmpty()) {
            operator.start();
            return new PodnumaOperator(operator, controller, leading, Optional.empty(), passes);
        }
        LeaderElection le = leaderElection.get();
        AtomicReference<PodnumaOperator> self = new AtomicReference<>();
        AtomicReference<LeaseElector> elector = new AtomicReference<>();
        Object lock = new Object();
        // Stops leading when no renewal shows for renewDeadline, whatever the elector's attempt waits for.
        LeaseFence fence = new LeaseFence(new KubeLeases(client, le.leaseNamespace(), le.leaseName()), le, () -> {
            leading.set(0);
            elector.get().close();
            le.lostLeadership().run();
        });
        elector.set(new LeaseElector(
                new KubeLeases(client, le.leaseNamespace(), le.leaseName()),
                new Candidate(le.identity(), le.timings()),
                System::nanoTime,
                le.leaseClock(),
                new LeaseElector.Leadership() {
                    @Override
                    public void start() {
                        synchronized (lock) {
                            if (self.get().closing) {
                                return; // the stop gives the Lease up
                            }
                            // A stale acquisition fences (the process ends) before any reconcile starts.
                            if (fence.leading()) {
                                leading.set(1);
                                controller.startEventProcessing();
                            }
                        }
                    }

                    @Override
                    public void stop(String why) {
                        leading.set(0);
                        fence.close();
                        le.lostLeadership().run();
                    }
                }));
        ConfigurationService config = operator.getConfigurationService();
        config.getExecutorServiceManager().start(config);
        // What the SDK's start does with its leader election on: the informers start and sync, no event is processed.
        controller.start(false);
        PodnumaOperator running = new PodnumaOperator(
                operator, controller, leading, Optional.of(new Election(elector.get(), fence, lock)), passes);
        self.set(running);
        elector.get().start();
        return running;
    }

    /** The reconciles of {@code policy} this operator has ended so far. */
    ReconcilePasses.Count passes(String policy) {
        return passes.of(policy);
    }

    /** Whether the informers are healthy (what /readyz reports). */
    public boolean healthy() {
        // As the SDK's RuntimeInfo.allEventSourcesAreHealthy, which warns on every call when the SDK did not start.
        return controller.getControllerHealthInfo().unhealthyEventSources().isEmpty();
    }

    /**
     * Stops reconciling, letting running reconciles finish (up to 10 s), then gives the Lease up if this replica holds
     * it. The gauge says 0 from the start of the stop, so a standby's 1 never overlaps this replica's 1.
     */
    @Override
    public void close() {
        boolean led;
        synchronized (election.map(Election::lock).orElse(this)) {
            closing = true;
            led = leading.getAndSet(0) == 1;
        }
        // A standby stops trying at once; a leader renews until its reconciles have ended.
        if (!led) {
            election.ifPresent(e -> e.elector().close());
        }
        if (election.isPresent()) {
            controller.stop();
        }
        operator.stop();
        election.ifPresent(e -> {
            e.elector().close();
            e.fence().close();
            e.elector().release();
        });
    }

    /** The SDK's meters get a description (HELP) before it registers any. */
    private static MeterRegistry withSdkDescriptions(MeterRegistry registry) {
        registry.config().meterFilter(new SdkMeterDescriptions());
        return registry;
    }
}
