package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.KwokNodes;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.settings.OperatorSettingsLoader;
import io.podnuma.testkit.Edits;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.operator.OperatorProcess;
import io.podnuma.testkit.prometheus.PrometheusText;
import io.podnuma.testkit.soak.FaultDraw;
import io.podnuma.testkit.soak.FaultKind;
import io.podnuma.testkit.soak.LeaderInvariants;
import io.podnuma.testkit.soak.SoakTally;
import io.podnuma.testkit.soak.Violation;
import io.podnuma.testkit.soak.ViolationKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's failover soak: {@value #REPLICAS_DEFAULT} replicas of {@code operator run} (real processes, the
 * operator's ServiceAccount, short Lease timings) on the real API server, a seeded churn of NumaResourcePolicies
 * (create, update, delete) and node labels, and between churn steps a fault, every kind once first (in an order
 * shuffled by the seed; the run goes on past its duration until each was injected, and fails unless each was) and then
 * drawn at random: the leader killed (-9), the leader stopped (SIGTERM), a standby killed, kube-apiserver stopped and
 * started, kube-apiserver away for longer than the Lease duration, a node's policy label removed with the leader
 * killed (-9) before it put it back, a policy deleted while an agent still reports it with the leader killed (-9) in
 * the cleanup that waits for that agent's restore (both counted as reached only when the leader died mid-way; a miss
 * is tried again up to {@link #MAX_AGAIN} times, and the run fails if one never reached it). A replica that exits (killed, or after losing the Lease) is started again after
 * {@link #RESTART_DELAY}, as the kubelet restarts a container. The replicas' clocks disagree, as two nodes' clocks may:
 * each stamps the Lease's times with its wall clock shifted by its {@link #CLOCK_OFFSETS offset}.
 *
 * <p>Checked at every sample (a sampler thread, as often as the scrapes allow): at most one replica says it leads
 * ({@code podnuma_operator_leader} 1), and one that says so is the Lease's holder. Checked after every fault: no
 * replica wrote while it did not hold the Lease (each Event a replica made carries its name and, in its own name, the
 * millisecond of its reconcile, which must fall in that replica's tenure by the Lease's {@code acquireTime}s; a
 * replica whose reconcile counter moved was the Lease's holder while it ran; the Lease's times are read back on the
 * real clock by taking each holder's offset off), no replica took the Lease less than {@code renewDeadline} after its
 * previous holder's last renewal unless that holder had given it up (the Lease's history, seen by a watch: it shows an
 * overlap of two leaders however short, where the samples may miss it), and the cluster converged within
 * {@link #CONVERGE_TIMEOUT}: every policy's {@code status.observedGeneration} is its generation, its counts and
 * conditions say what its nodes are, every node carries the label of the policy that selects it (none when none
 * does), every policy's agent DaemonSet is the rendered one, and a deleted policy and its DaemonSet are gone.
 *
 * <p>Short by default ({@code PT15S} of faults, plus the start); {@code scripts/soak operator
 * [duration]} runs longer. {@code -Dpodnuma.soak.seed=<n>} replays a draw (up to the timing of the processes).
 */
@ExtendWith(ControlPlaneExtension.class)
class OperatorFailoverSoakIT {

    static final int REPLICAS_DEFAULT = 3;
    /**
     * Short timings for a short soak, with room between the fence and a takeover (the production defaults, 15 s / 10 s
     * / 2 s, leave about 4 s: a leader that could not renew stops that long before a standby may take over). With
     * 4 s / 3 s the room was 0.75 s, the fence's check period included, and once in CI (two forks, each with its control plane, on two CPUs) the old leader still
     * said it led when a standby took the Lease after an API server restart. 6 s / 3 s leave 2.75 s.
     */
    static final Duration LEASE_DURATION = Duration.ofSeconds(6);

    static final Duration RENEW_DEADLINE = Duration.ofSeconds(3);
    static final Duration RETRY_PERIOD = Duration.ofMillis(500);
    /**
     * Each replica's wall-clock offset for the Lease's times, in the order of the replicas: any two differ by more than
     * {@code leaseDuration - renewDeadline} (3 s), the first two by more than {@code leaseDuration} itself. A standby
     * that compared the holder's renewTime with its own wall clock (the client's elector did) would take the Lease
     * from a holder 5 s behind 1 s after a renewal, and from one 10 s behind at once. The first replica, the furthest
     * behind, leads first: every run begins with both standbys ahead of the leader.
     */
    static final List<Duration> CLOCK_OFFSETS = List.of(Duration.ofSeconds(-5), Duration.ofSeconds(5), Duration.ZERO);

    /** The operator's test-only JVM property for that offset (RunCommand.leaseClock). */
    static final String CLOCK_OFFSET_PROPERTY = "podnuma.operator.test.leaseClockOffset";

    /** The kubelet restarts a container at once the first time; a short pause lets a standby win the Lease sometimes. */
    static final Duration RESTART_DELAY = Duration.ofSeconds(1);

    static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60);
    /** How old a write must be before it is checked against the Lease as the informer has seen it. */
    static final Duration SETTLE = Duration.ofSeconds(1);

    static final int NODES = 6;
    /** Groups a node can be in; the policies select disjoint groups, so no node has two candidates. */
    static final int GROUPS = 4;

    static final int POLICIES = 3;
    static final List<FaultKind> KINDS = List.of(
            FaultKind.OPERATOR_KILL9,
            FaultKind.OPERATOR_SIGTERM,
            FaultKind.OPERATOR_FOLLOWER_KILL9,
            FaultKind.API_SERVER_RESTART,
            FaultKind.API_SERVER_OUTAGE,
            FaultKind.NODE_LABEL_REMOVED,
            FaultKind.POLICY_DELETED);
    /** How often a fault that missed its moment (the leader killed mid-way) is tried again before the run fails. */
    static final int MAX_AGAIN = 3;

    static final String RECONCILES = "operator_sdk_reconciliations_started_total";
    static final String LEADER = "podnuma_operator_leader";

    /** One run of one replica's process. */
    static final class Incarnation {
        final String replica;
        final OperatorProcess process;
        final Instant started = Instant.now();
        volatile Instant ended;
        volatile double reconciles;

        Incarnation(String replica, OperatorProcess process) {
            this.replica = replica;
            this.process = process;
        }
    }

    /** One replica (a pod of the Deployment): its current incarnation, restarted when it exits. */
    static final class Slot {
        final String replica;
        final Duration clockOffset;
        volatile Incarnation current;
        volatile long deadSince;

        Slot(String replica, Duration clockOffset) {
            this.replica = replica;
            this.clockOffset = clockOffset;
        }
    }

    /** One sample of a replica: what it says of itself. */
    record Scrape(Incarnation inc, boolean leads, double reconciles) {}

    @TempDir
    Path dir;

    private KubernetesClient admin;
    private String suffix;
    private String lease;
    private String groupLabel;
    private Path config;
    private Path kubeconfig;
    private AgentRollout rollout;
    private Random rnd;
    private final List<Slot> slots = new ArrayList<>();
    private final Map<String, Duration> clockOffsets = new ConcurrentHashMap<>();
    private final List<Incarnation> incarnations = new CopyOnWriteArrayList<>();
    private final Set<LeaderInvariants.Tenure> tenures = ConcurrentHashMap.newKeySet();
    private final List<LeaderInvariants.Renewal> renewals = new CopyOnWriteArrayList<>();
    private final List<LeaderInvariants.Release> releases = new CopyOnWriteArrayList<>();
    private volatile int eventsChecked;
    private volatile int runsThatReconciled;
    private final SoakTally tally = new SoakTally();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicInteger leaseLostExits = new AtomicInteger();
    /** Exits of a replica that refused to lead on an acquisition stamped before an outage (LeaseFence). */
    private final AtomicInteger staleAcquisitions = new AtomicInteger();

    private final Set<String> suspects = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;
    private volatile FaultKind current = FaultKind.OPERATOR_KILL9;
    /** A fault that ended a leadership: from then until another incarnation leads, the takeover is timed. */
    record Takeover(FaultKind kind, long fromNanos, Incarnation ended) {}

    private volatile Takeover takeover;
    /** Whether the fault just injected reached the moment it aims at; null for a fault that aims at none. */
    private Boolean reached;

    private volatile Set<String> expectedPolicies = Set.of();
    private final Map<String, Integer> policyGroup = new ConcurrentHashMap<>();
    private final Map<String, Integer> policyPriority = new ConcurrentHashMap<>();
    private final Set<String> deletedPolicies = ConcurrentHashMap.newKeySet();
    private final List<String> nodes = new ArrayList<>();
    private SharedIndexInformer<Lease> leaseInformer;
    private ControlPlane plane;

    @AfterEach
    void tearDown() throws Exception {
        running = false;
        if (plane != null && !plane.apiServerRunning()) {
            plane.startApiServer();
        }
        if (leaseInformer != null) {
            leaseInformer.close();
        }
        for (Incarnation i : incarnations) {
            i.process.close();
        }
        if (admin != null) {
            // A report POLICY_DELETED left (a failed run): the policies' cleanups must not wait for it.
            for (String n : nodes) {
                admin.resources(NumaNodeState.class).withName(n).delete();
            }
            for (int p = 0; p < POLICIES; p++) {
                admin.resources(NumaResourcePolicy.class).withName(policy(p)).delete();
            }
        }
    }

    @Test
    void oneLeaderAtATimeNoWriteWithoutTheLeaseAndConvergenceAfterEveryFault(ControlPlane plane) throws Exception {
        this.plane = plane;
        admin = plane.client();
        OperatorFixture.prepare(plane).client.close();
        Duration duration = Duration.parse(System.getProperty("podnuma.soak.duration", "PT15S"));
        long seed = Long.getLong("podnuma.soak.seed", System.nanoTime());
        int replicas = Integer.getInteger("podnuma.soak.replicas", REPLICAS_DEFAULT);
        System.out.println("OperatorFailoverSoakIT seed " + seed + " duration " + duration + " replicas " + replicas
                + " Lease clock offsets " + CLOCK_OFFSETS + " (-Dpodnuma.soak.seed=" + seed + " replays the draw)");
        rnd = new Random(seed);
        suffix = UUID.randomUUID().toString().substring(0, 6);
        lease = "podnuma-operator-fo-" + suffix;
        groupLabel = "podnuma.it/fo-" + suffix;
        // restoreTimeout: well past what POLICY_DELETED takes (labels off, a leader killed, the next one leading): on
        // a loaded host that took over 20 s, and a cleanup that gives up on the restore rightly releases the policy.
        String yaml = "namespace: " + OperatorFixture.NAMESPACE + "\nagentImage: podnuma/node-agent:it\n"
                + "leaseName: " + lease + "\nrestoreTimeout: 120s\n"
                + "leaseDuration: " + LEASE_DURATION.toMillis() + "ms\nrenewDeadline: " + RENEW_DEADLINE.toMillis()
                + "ms\nretryPeriod: " + RETRY_PERIOD.toMillis() + "ms\n";
        config = dir.resolve("operator.yaml");
        Files.writeString(config, yaml);
        // What the replicas render their agents with: the same file read by the same loader.
        rollout = OperatorSettingsLoader.parse(yaml, "operator.yaml", Map.of(), Map.of())
                .rollout();
        kubeconfig = plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT);
        for (int i = 0; i < NODES; i++) {
            String n = "fo-" + suffix + "-" + i;
            plane.ensureNode(n, Map.of(groupLabel, group(i % GROUPS)), KwokNodes.DEFAULT_ALLOCATABLE);
            nodes.add(n);
        }
        leaseInformer = admin.leases()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(lease)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Lease l) {
                        seen(l);
                    }

                    @Override
                    public void onUpdate(Lease old, Lease l) {
                        released(old, l);
                        seen(l);
                    }

                    @Override
                    public void onDelete(Lease l, boolean unknown) {}
                });
        for (int r = 0; r < replicas; r++) {
            Slot s = new Slot("fo-" + (char) ('a' + r) + "-" + suffix, CLOCK_OFFSETS.get(r % CLOCK_OFFSETS.size()));
            slots.add(s);
            clockOffsets.put(s.replica, s.clockOffset);
        }
        start(slots.getFirst());
        awaitLeader();
        slots.stream().skip(1).forEach(this::start);
        Thread.ofPlatform().name("fo-kubelet").daemon().start(this::restartExited);
        Thread sampler = Thread.ofPlatform().name("fo-sampler").daemon().start(this::sample);
        for (int p = 0; p < POLICIES; p++) {
            create(p);
        }
        awaitConverged("the start");
        // The faults begin once every standby is Ready and trying for the Lease: a standby still starting would sit
        // out the first faults, and the first leader's clock is the one behind the others.
        awaitAllReady();

        FaultDraw draw = new FaultDraw(KINDS, rnd);
        Map<FaultKind, Integer> again = new EnumMap<>(FaultKind.class);
        long t0 = System.nanoTime();
        long deadline = t0 + duration.toNanos();
        while ((System.nanoTime() < deadline || draw.covering()) && failures.isEmpty()) {
            churn();
            FaultKind k = draw.next();
            current = k;
            long injected = System.nanoTime();
            reached = null;
            inject(k);
            tally.injected(k);
            if (reached != null) {
                tally.aimed(k, reached);
                if (!reached && tally.reached(k) == 0 && again.merge(k, 1, Integer::sum) <= MAX_AGAIN) {
                    draw.again(k);
                }
            }
            // The new leader has work to do: a churn step right after the fault.
            churn();
            if (!awaitConverged(k.name())) {
                tally.violated(k, new Violation(ViolationKind.NOT_CONVERGED, k.name(), failures.getLast()));
                break;
            }
            tally.converged(k, Duration.ofNanos(System.nanoTime() - injected));
            checkWrites(k, SETTLE);
        }
        long faultsNanos = System.nanoTime() - t0;
        running = false;
        sampler.join(5_000);
        sleep(SETTLE.toMillis());
        checkWrites(current, Duration.ZERO);
        System.out.printf(
                "OperatorFailoverSoakIT: %d injections in %d s, %d samples (%.0f/s), %d incarnations (%d reconciled),"
                        + " %d exits after a lost Lease (%d refused a stale acquisition), %d Lease tenures, %d Events"
                        + " checked against them%n%s",
                tally.injections(),
                TimeUnit.NANOSECONDS.toSeconds(faultsNanos),
                samples.get(),
                samples.get() / Math.max(1.0, faultsNanos / 1e9),
                incarnations.size(),
                runsThatReconciled,
                leaseLostExits.get(),
                staleAcquisitions.get(),
                tenures.size(),
                eventsChecked,
                tally.render());
        assertThat(failures).as("failures").isEmpty();
        assertThat(tally.violations()).as("invariant violations").isEmpty();
        assertThat(tally.neverInjected(KINDS)).as("kinds never injected").isEmpty();
        assertThat(tally.neverReached())
                .as("faults that never reached the moment they aim at")
                .isEmpty();
    }

    // ---- the replicas ----

    private void start(Slot s) {
        try {
            List<String> jvm = new ArrayList<>(OperatorProcess.jvmFlags());
            jvm.add("-D" + CLOCK_OFFSET_PROPERTY + "=" + s.clockOffset);
            OperatorProcess p = OperatorProcess.start(
                    dir.resolve("logs"), s.replica, kubeconfig, Map.of("config", config.toString()), jvm);
            Incarnation i = new Incarnation(s.replica, p);
            incarnations.add(i);
            s.current = i;
            s.deadSince = 0;
        } catch (IOException e) {
            failures.add("cannot start " + s.replica + ": " + e);
        }
    }

    /** The kubelet's part: a replica that exited starts again {@link #RESTART_DELAY} later. */
    private void restartExited() {
        while (running) {
            for (Slot s : slots) {
                Incarnation i = s.current;
                if (i.process.isAlive()) {
                    continue;
                }
                if (s.deadSince == 0) {
                    s.deadSince = System.nanoTime();
                    i.ended = Instant.now();
                    if (i.process.exitCode().orElse(-1) == 1) {
                        // Lost the Lease (e.g. could not renew while the API server was down): it exits by design.
                        leaseLostExits.incrementAndGet();
                        if (logTail(i).contains("was acquired with a renewTime")) {
                            staleAcquisitions.incrementAndGet();
                        }
                    }
                } else if (System.nanoTime() - s.deadSince > RESTART_DELAY.toNanos() && running) {
                    start(s);
                }
            }
            sleep(100);
        }
    }

    private void awaitAllReady() {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            if (slots.stream().allMatch(s -> ready(s.current))) {
                return;
            }
            sleep(100);
        }
        failures.add("not every replica was Ready within " + CONVERGE_TIMEOUT);
    }

    private static boolean ready(Incarnation i) {
        try {
            return i.process.health("/readyz") == 200;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return false;
        }
    }

    private static String logTail(Incarnation i) {
        try {
            return i.process.logTail();
        } catch (IOException e) {
            return "";
        }
    }

    private Optional<Slot> leaderSlot() {
        String holder = holder().orElse(null);
        return slots.stream()
                .filter(s -> s.replica.equals(holder) && s.current.process.isAlive())
                .findFirst();
    }

    /** The leader once one leads (a fault may have just begun a takeover). */
    private Slot awaitLeader() {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            Optional<Slot> s = leaderSlot();
            if (s.isPresent() && leads(s.get().current)) {
                return s.get();
            }
            sleep(100);
        }
        throw new AssertionError("no leader within " + CONVERGE_TIMEOUT);
    }

    private static boolean leads(Incarnation i) {
        try {
            return PrometheusText.parse(i.process.metrics()).sum(LEADER, Map.of()) == 1;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return false;
        }
    }

    // ---- the faults ----

    private void inject(FaultKind k) throws Exception {
        switch (k) {
            case OPERATOR_KILL9 -> {
                Slot leader = awaitLeader();
                takeover = new Takeover(FaultKind.OPERATOR_KILL9, System.nanoTime(), leader.current);
                leader.current.process.close();
            }
            case OPERATOR_SIGTERM -> {
                Slot leader = awaitLeader();
                takeover = new Takeover(FaultKind.OPERATOR_SIGTERM, System.nanoTime(), leader.current);
                int exit = leader.current.process.terminate(Duration.ofSeconds(30));
                if (exit != 0 && exit != 143) {
                    failures.add("SIGTERM: the leader exited " + exit + ":\n" + leader.current.process.logTail());
                }
            }
            case OPERATOR_FOLLOWER_KILL9 -> {
                Slot leader = awaitLeader();
                List<Slot> followers = slots.stream()
                        .filter(s -> s != leader && s.current.process.isAlive())
                        .toList();
                if (!followers.isEmpty()) {
                    followers.get(rnd.nextInt(followers.size())).current.process.close();
                }
            }
            case API_SERVER_RESTART -> {
                plane.stopApiServer();
                sleep(500 + rnd.nextInt(1500));
                plane.startApiServer();
            }
            case NODE_LABEL_REMOVED -> removeALabelAndKillTheLeader();
            case POLICY_DELETED -> deleteAPolicyAndKillTheLeaderMidRestore();
            case API_SERVER_OUTAGE -> {
                // Every replica's attempt waits through it (the client retries); a write under way when it stopped
                // lands after it with a renewTime from before the wait (the fence refuses to lead on it).
                plane.stopApiServer();
                sleep(LEASE_DURATION.toMillis() + 1000 + rnd.nextInt(1000));
                plane.startApiServer();
            }
            default -> throw new IllegalArgumentException("the operator soak has no injector for " + k);
        }
    }

    /**
     * A node's {@code podnuma.io/policy} label removed by hand while its policy still selects it, and the leader
     * killed (-9) right away: reached when the label was still off at the kill, so the next leader has to put it back
     * (convergence checks it is back).
     */
    private void removeALabelAndKillTheLeader() throws Exception {
        String n = aGovernedNode();
        Slot leader = awaitLeader();
        Edits.retryingConflicts(() -> admin.nodes().withName(n).edit(o -> {
            o.getMetadata().getLabels().remove(AgentRender.POLICY_LABEL);
            return o;
        }));
        takeover = new Takeover(FaultKind.NODE_LABEL_REMOVED, System.nanoTime(), leader.current);
        leader.current.process.close();
        reached = policyLabel(n).isEmpty();
    }

    /**
     * A policy deleted while an agent still reports it (a NumaNodeState naming it, as an agent's does until its restore
     * is done and it deletes it), and the leader killed (-9) in the cleanup that waits for that restore. What the
     * design says (operator README, {@code PolicySteps.cleanup}): the labels come off at once; the DaemonSet and the
     * policy (its finalizer) stay while a NumaNodeState reports the policy, also across the takeover; once none does
     * (the soak deletes the report after the next leader leads, as the agent would), the dependents go and the
     * finalizer is released (convergence checks both are gone). Reached when the leader died with the labels off and
     * the cleanup waiting.
     */
    private void deleteAPolicyAndKillTheLeaderMidRestore() throws Exception {
        String n = aGovernedNode();
        String name = policyOf(n);
        int p = indexOf(name);
        NumaNodeState report = admin.resource(new NumaNodeState(n)).create();
        report.setStatus(new NumaNodeStateStatus(name, "sha256:soak", null, null, null, 0, List.of(), List.of(), null));
        admin.resource(report).updateStatus();
        delete(p);
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (System.nanoTime() < until
                && !admin.nodes()
                        .withLabel(AgentRender.POLICY_LABEL, name)
                        .list()
                        .getItems()
                        .isEmpty()) {
            sleep(20);
        }
        Slot leader = awaitLeader();
        takeover = new Takeover(FaultKind.POLICY_DELETED, System.nanoTime(), leader.current);
        leader.current.process.close();
        reached = admin.nodes()
                        .withLabel(AgentRender.POLICY_LABEL, name)
                        .list()
                        .getItems()
                        .isEmpty()
                && policyObject(name).isPresent()
                && daemonSetOf(name).isPresent();
        // The next leader waits for the restore too: its first reconciles must leave both in place.
        awaitLeader();
        sleep(RETRY_PERIOD.toMillis() * 2);
        if (daemonSetOf(name).isEmpty() || policyObject(name).isEmpty()) {
            failures.add("POLICY_DELETED: " + name
                    + (policyObject(name).isEmpty() ? " was released" : "'s DaemonSet" + " was deleted")
                    + " while NumaNodeState " + n + " still reported it (an agent restoring)");
        }
        admin.resources(NumaNodeState.class).withName(n).delete();
    }

    /** A node some policy governs (one made so when none is: a policy created, a node moved into its group). */
    private String aGovernedNode() {
        for (int tries = 0; tries < 3; tries++) {
            for (String n : nodes) {
                if (policyLabel(n).filter(expectedPolicies::contains).isPresent()) {
                    return n;
                }
            }
            if (expectedPolicies.isEmpty()) {
                create(rnd.nextInt(POLICIES));
            }
            String name = expectedPolicies.iterator().next();
            relabel(rnd.nextInt(NODES), policyGroup.get(name));
            awaitConverged("making a node governed");
        }
        throw new AssertionError("no node governed by a policy: " + expectedPolicies);
    }

    private Optional<String> policyLabel(String node) {
        return Optional.ofNullable(
                admin.nodes().withName(node).get().getMetadata().getLabels().get(AgentRender.POLICY_LABEL));
    }

    private String policyOf(String node) {
        return policyLabel(node).orElseThrow();
    }

    private int indexOf(String policyName) {
        for (int p = 0; p < POLICIES; p++) {
            if (policy(p).equals(policyName)) {
                return p;
            }
        }
        throw new IllegalArgumentException(policyName + " is none of this soak's policies");
    }

    private Optional<NumaResourcePolicy> policyObject(String name) {
        return Optional.ofNullable(
                admin.resources(NumaResourcePolicy.class).withName(name).get());
    }

    private Optional<DaemonSet> daemonSetOf(String policyName) {
        return Optional.ofNullable(admin.apps()
                .daemonSets()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(policyName))
                .get());
    }

    // ---- the churn ----

    private void churn() {
        for (int n = 1 + rnd.nextInt(2); n > 0; n--) {
            int op = rnd.nextInt(4);
            int p = rnd.nextInt(POLICIES);
            boolean exists = expectedPolicies.contains(policy(p));
            try {
                switch (op) {
                    case 0 -> {
                        if (exists) {
                            delete(p);
                        } else {
                            create(p);
                        }
                    }
                    case 1 -> {
                        if (exists) {
                            update(p);
                        } else {
                            create(p);
                        }
                    }
                    default -> relabel(rnd.nextInt(NODES), rnd.nextInt(GROUPS));
                }
            } catch (RuntimeException e) {
                // The API server may be starting again; the next step tries again.
                System.out.println("churn step skipped: " + e.getMessage());
            }
        }
    }

    private void create(int p) {
        if (admin.resources(NumaResourcePolicy.class).withName(policy(p)).get() != null) {
            return; // still being deleted: its finalizer holds it
        }
        int g = freeGroup(p);
        int prio = rnd.nextInt(10);
        admin.resource(new NumaResourcePolicy(policy(p), spec(g, prio))).create();
        policyGroup.put(policy(p), g);
        policyPriority.put(policy(p), prio);
        deletedPolicies.remove(policy(p));
        expected(policy(p), true);
    }

    /** A new priority or a group no other policy selects: either bumps the generation. */
    private void update(int p) {
        int g = rnd.nextBoolean() ? freeGroup(p) : policyGroup.get(policy(p));
        int prio = (policyPriority.get(policy(p)) + 1 + rnd.nextInt(5)) % 10;
        Edits.retryingConflicts(() -> admin.resources(NumaResourcePolicy.class)
                .withName(policy(p))
                .edit(o -> {
                    o.setSpec(spec(g, prio));
                    return o;
                }));
        policyGroup.put(policy(p), g);
        policyPriority.put(policy(p), prio);
    }

    private void delete(int p) {
        admin.resources(NumaResourcePolicy.class).withName(policy(p)).delete();
        expected(policy(p), false);
        deletedPolicies.add(policy(p));
    }

    private void relabel(int node, int g) {
        Edits.retryingConflicts(() -> admin.nodes().withName(nodes.get(node)).edit(n -> {
            n.getMetadata().getLabels().put(groupLabel, group(g));
            return n;
        }));
    }

    private synchronized void expected(String name, boolean present) {
        Set<String> s = new TreeSet<>(expectedPolicies);
        if (present) {
            s.add(name);
        } else {
            s.remove(name);
        }
        expectedPolicies = Set.copyOf(s);
    }

    /** A group no other live policy selects (there are more groups than policies). */
    private int freeGroup(int p) {
        Set<Integer> taken = new TreeSet<>();
        for (String other : expectedPolicies) {
            if (!other.equals(policy(p))) {
                taken.add(policyGroup.get(other));
            }
        }
        // A deleted policy's group stays taken until it is gone: its labels are still being removed.
        for (String gone : deletedPolicies) {
            taken.add(policyGroup.get(gone));
        }
        List<Integer> free = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            if (!taken.contains(g)) {
                free.add(g);
            }
        }
        return free.isEmpty() ? policyGroup.getOrDefault(policy(p), 0) : free.get(rnd.nextInt(free.size()));
    }

    private NumaResourcePolicySpec spec(int g, int priority) {
        return SampleConfigs.selectingOnly(groupLabel, group(g), priority);
    }

    private String policy(int p) {
        return "fo-" + suffix + "-p" + p;
    }

    private static String group(int g) {
        return "g" + g;
    }

    // ---- convergence ----

    private boolean awaitConverged(String after) {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < until) {
            try {
                Optional<String> wrong = notConverged();
                if (wrong.isEmpty()) {
                    deletedPolicies.removeIf(p -> !expectedPolicies.contains(p));
                    return true;
                }
                last = wrong.get();
            } catch (RuntimeException e) {
                last = "cannot read: " + e.getMessage();
            }
            sleep(100);
        }
        StringBuilder logs = new StringBuilder();
        for (Slot s : slots) {
            try {
                logs.append("\n--- ").append(s.replica).append(":\n").append(s.current.process.logTail());
            } catch (IOException e) {
                logs.append(e);
            }
        }
        failures.add("after " + after + " no convergence within " + CONVERGE_TIMEOUT + ": " + last + logs);
        return false;
    }

    /** What differs from the state the objects ask for, or empty. */
    private Optional<String> notConverged() {
        Map<String, String> nodeGroup = new TreeMap<>();
        Map<String, String> nodePolicy = new TreeMap<>();
        for (String n : nodes) {
            Node node = admin.nodes().withName(n).get();
            Map<String, String> labels = node.getMetadata().getLabels();
            nodeGroup.put(n, labels.get(groupLabel));
            nodePolicy.put(n, labels.get(AgentRender.POLICY_LABEL));
        }
        Map<String, String> groupPolicy = new TreeMap<>();
        for (String name : expectedPolicies) {
            groupPolicy.put(group(policyGroup.get(name)), name);
        }
        for (String n : nodes) {
            String want = groupPolicy.get(nodeGroup.get(n));
            if (!Objects.equals(want, nodePolicy.get(n))) {
                return Optional.of("node " + n + " (group " + nodeGroup.get(n) + ") has policy label "
                        + nodePolicy.get(n) + ", want " + want);
            }
        }
        for (int p = 0; p < POLICIES; p++) {
            String name = policy(p);
            NumaResourcePolicy o =
                    admin.resources(NumaResourcePolicy.class).withName(name).get();
            DaemonSet ds = admin.apps()
                    .daemonSets()
                    .inNamespace(OperatorFixture.NAMESPACE)
                    .withName(AgentRender.objectName(name))
                    .get();
            if (!expectedPolicies.contains(name)) {
                if (o != null || ds != null) {
                    return Optional.of(
                            name + " was deleted but " + (o != null ? "still exists" : "its DaemonSet does"));
                }
                continue;
            }
            if (o == null || o.getMetadata().getDeletionTimestamp() != null) {
                return Optional.of(name + " is missing or being deleted");
            }
            Optional<String> wrong = statusProblem(o, nodeGroup);
            if (wrong.isPresent()) {
                return wrong;
            }
            String configHash = AgentRender.render(name, o.getSpec(), rollout).configHash();
            if (ds == null) {
                return Optional.of(name + " has no DaemonSet");
            }
            Map<String, String> selector = ds.getSpec().getTemplate().getSpec().getNodeSelector();
            Map<String, String> annotations =
                    ds.getSpec().getTemplate().getMetadata().getAnnotations();
            if (!name.equals(selector.get(AgentRender.POLICY_LABEL))
                    || !configHash.equals(annotations.get(AgentRender.CONFIG_HASH_ANNOTATION))) {
                return Optional.of(name + "'s DaemonSet selects " + selector + " with config hash "
                        + annotations.get(AgentRender.CONFIG_HASH_ANNOTATION) + ", want " + configHash);
            }
        }
        return Optional.empty();
    }

    /** Status as its nodes say: generation observed, the count of its group's nodes, no conflict, not ready. */
    private Optional<String> statusProblem(NumaResourcePolicy o, Map<String, String> nodeGroup) {
        String name = o.getMetadata().getName();
        var st = o.getStatus();
        if (st == null
                || !Objects.equals(st.observedGeneration(), o.getMetadata().getGeneration())) {
            return Optional.of(name + " generation " + o.getMetadata().getGeneration() + ", observed "
                    + (st == null ? null : st.observedGeneration()));
        }
        String g = group(policyGroup.get(name));
        int matched = (int) nodeGroup.values().stream().filter(g::equals).count();
        if (!Objects.equals(st.nodesMatched(), matched)) {
            return Optional.of(name + " nodesMatched " + st.nodesMatched() + ", want " + matched);
        }
        Map<String, Condition> byType = new TreeMap<>();
        Objects.requireNonNullElse(st.conditions(), List.<Condition>of()).forEach(c -> byType.put(c.getType(), c));
        Condition conflict = byType.get("Conflict");
        Condition ready = byType.get("Ready");
        if (conflict == null || !"False".equals(conflict.getStatus())) {
            return Optional.of(name + " Conflict " + conflict + ", want False");
        }
        // No agent runs on these nodes: Ready is False, for want of nodes or of their agents.
        boolean none = matched == 0;
        if (ready == null
                || !"False".equals(ready.getStatus())
                || none != "NoNodesGoverned".equals(ready.getReason())) {
            return Optional.of(name + " Ready " + ready + " with " + matched + " nodes");
        }
        for (Condition c : byType.values()) {
            if (!Objects.equals(c.getObservedGeneration(), o.getMetadata().getGeneration())) {
                return Optional.of(
                        name + " condition " + c.getType() + " observed generation " + c.getObservedGeneration());
            }
        }
        return Optional.empty();
    }

    // ---- the invariants ----

    private void seen(Lease l) {
        if (l.getSpec() == null || l.getSpec().getHolderIdentity() == null) {
            return;
        }
        String holder = l.getSpec().getHolderIdentity();
        // The holder stamped these with its skewed clock; the writes and runs they are checked against are real time.
        Duration offset = clockOffsets.getOrDefault(holder, Duration.ZERO);
        if (l.getSpec().getAcquireTime() != null) {
            tenures.add(new LeaderInvariants.Tenure(
                    holder, l.getSpec().getAcquireTime().toInstant().minus(offset)));
        }
        if (l.getSpec().getRenewTime() != null) {
            renewals.add(new LeaderInvariants.Renewal(
                    holder, l.getSpec().getRenewTime().toInstant().minus(offset)));
        }
    }

    /** A holder that gave the Lease up: the watch shows the holder before and none after. */
    private void released(Lease old, Lease l) {
        if (old.getSpec() != null
                && old.getSpec().getHolderIdentity() != null
                && l.getSpec() != null
                && l.getSpec().getHolderIdentity() == null
                && l.getSpec().getRenewTime() != null) {
            String holder = old.getSpec().getHolderIdentity();
            releases.add(new LeaderInvariants.Release(
                    holder,
                    l.getSpec().getRenewTime().toInstant().minus(clockOffsets.getOrDefault(holder, Duration.ZERO))));
        }
    }

    private Optional<String> holder() {
        try {
            Lease l = admin.leases()
                    .inNamespace(OperatorFixture.NAMESPACE)
                    .withName(lease)
                    .get();
            if (l != null) {
                seen(l);
            }
            return l == null || l.getSpec() == null
                    ? Optional.empty()
                    : Optional.ofNullable(l.getSpec().getHolderIdentity());
        } catch (RuntimeException apiServerDown) {
            return Optional.empty();
        }
    }

    /**
     * The sampler: every replica's own view, then the Lease; a breach counts when two samples in a row show it
     * ({@link LeaderInvariants#confirmed}).
     */
    private void sample() {
        while (running) {
            List<Scrape> scrapes = new ArrayList<>();
            for (Slot s : slots) {
                Incarnation i = s.current;
                try {
                    PrometheusText m = PrometheusText.parse(i.process.metrics());
                    double reconciles = m.sum(RECONCILES, Map.of());
                    i.reconciles = Math.max(i.reconciles, reconciles);
                    scrapes.add(new Scrape(i, m.sum(LEADER, Map.of()) == 1, reconciles));
                } catch (IOException | InterruptedException | RuntimeException notServing) {
                    // starting, stopping or killed
                }
            }
            Optional<String> holder = holder();
            samples.incrementAndGet();
            List<String> leaders = scrapes.stream()
                    .filter(Scrape::leads)
                    .map(s -> s.inc().replica)
                    .sorted()
                    .toList();
            Set<String> now = LeaderInvariants.breaches(new LeaderInvariants.LeaderSample(leaders, holder));
            for (Violation v : LeaderInvariants.confirmed(suspects, now)) {
                tally.violated(current, v);
                failures.add(v + " (during " + current + ")");
            }
            suspects.clear();
            suspects.addAll(now);
            Takeover t = takeover;
            if (t != null && leaders.size() == 1 && holder.equals(Optional.of(leaders.getFirst()))) {
                Incarnation leading = scrapes.stream()
                        .filter(Scrape::leads)
                        .findFirst()
                        .orElseThrow()
                        .inc();
                if (leading != t.ended()) {
                    tally.tookOver(t.kind(), Duration.ofNanos(System.nanoTime() - t.fromNanos()));
                    takeover = null;
                }
            }
            sleep(10);
        }
    }

    /**
     * No write without the Lease: each Event a replica made falls in a tenure of that replica, and each incarnation
     * whose reconcile counter moved renewed the Lease while it ran; and no takeover before the previous holder's fence.
     */
    private void checkWrites(FaultKind k, Duration settle) {
        // The Lease informer sees an acquisition milliseconds after it; what is younger than settle waits.
        Instant cutoff = Instant.now().minus(settle);
        Set<String> names = new TreeSet<>();
        slots.forEach(s -> names.add(s.replica));
        List<Event> events;
        try {
            events = admin.v1().events().inNamespace("default").list().getItems();
        } catch (RuntimeException e) {
            failures.add("cannot list Events: " + e);
            return;
        }
        List<LeaderInvariants.Write> writes = new ArrayList<>();
        for (Event e : events) {
            String by = e.getReportingInstance();
            if (by != null && names.contains(by) && e.getMetadata().getName().startsWith("fo-" + suffix)) {
                Instant at = reconcileTime(e.getMetadata().getName());
                if (at.isBefore(cutoff)) {
                    writes.add(new LeaderInvariants.Write(
                            by, at, "Event " + e.getMetadata().getName() + " (" + e.getReason() + ")"));
                }
            }
        }
        eventsChecked = writes.size();
        List<LeaderInvariants.Run> runs = new ArrayList<>();
        for (Incarnation i : incarnations) {
            if (i.started.isBefore(cutoff.minus(RETRY_PERIOD.multipliedBy(2)))) {
                runs.add(new LeaderInvariants.Run(i.replica, i.started, i.ended, i.reconciles));
            }
        }
        runsThatReconciled = (int) runs.stream().filter(r -> r.reconciles() > 0).count();
        List<Violation> found = new ArrayList<>(LeaderInvariants.writesOutsideTenure(tenures, writes));
        found.addAll(LeaderInvariants.reconcilesWithoutRenewal(runs, renewals, Instant.now()));
        // Only tenures the watch has had time to deliver the history before: a release comes just ahead of them.
        List<LeaderInvariants.Tenure> settled =
                tenures.stream().filter(t -> t.acquired().isBefore(cutoff)).toList();
        found.addAll(LeaderInvariants.takeoversBeforeTheFence(settled, renewals, releases, RENEW_DEADLINE));
        for (Violation v : found) {
            if (reported.add(v.toString())) {
                tally.violated(k, v);
                failures.add(v.toString());
            }
        }
    }

    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /**
     * The millisecond of the reconcile that made an Event: its name is {@code <policy>.<epoch ms in hex><sequence in
     * hex>} (KubeEventSink); the epoch milliseconds of these years have 11 hex digits.
     */
    static Instant reconcileTime(String eventName) {
        String tail = eventName.substring(eventName.lastIndexOf('.') + 1);
        return Instant.ofEpochMilli(HexFormat.fromHexDigitsToLong(tail.substring(0, 11)));
    }

    private static void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
