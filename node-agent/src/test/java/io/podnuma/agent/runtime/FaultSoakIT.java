package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.podnuma.agent.cgroup.FaultInjectingCgroupFiles;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.CrashTestSetup.Kind;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.testkit.Edits;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.host.TmpfsStateDir;
import io.podnuma.testkit.soak.AgentRecords;
import io.podnuma.testkit.soak.ContainerSample;
import io.podnuma.testkit.soak.FaultDraw;
import io.podnuma.testkit.soak.FaultKind;
import io.podnuma.testkit.soak.Invariants;
import io.podnuma.testkit.soak.Placements;
import io.podnuma.testkit.soak.Record;
import io.podnuma.testkit.soak.SampleCheck;
import io.podnuma.testkit.soak.Snapshot;
import io.podnuma.testkit.soak.SoakTally;
import io.podnuma.testkit.soak.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak on the process driver: {@code node-agent run} as a process on a kwok node and a kubelet-like cgroup
 * host of this machine (CPUs 0-1, CPU 0 reserved, CPU 1 the one exclusive CPU), a churn of pods, and faults between
 * churn steps: every kind of {@link #KINDS} once first (in an order shuffled by the seed), then drawn at random
 * (seeded, the seed printed); the run ends at its duration once every kind was injected, and fails unless every
 * kind was, and every fault that aims at a moment of the agent's run (a kill at start, in the sync, after a
 * checkpoint, in the shutdown, in the restore) reached it at least once (a miss is tried again, up to
 * {@link #MAX_AGAIN} times). A sampler thread reads every container cgroup's cpuset and its process's affinity as
 * often as it can, with the checkpoint's expectation, and checks {@link Invariants} at every sample; after every
 * fault the soak waits until the node converged (every container on its wanted set, NumaNodeState holding every pod
 * the checkpoint holds) and times it, then compares each container's CPUs, exclusive CPUs and memory nodes in the
 * checkpoint, NumaNodeState and the PodResources answer ({@link Placements}), and each pod pinned before the fault
 * that still lives with its placement before it: a change fails the run unless the fault may move pins
 * ({@link FaultKind#mayMovePins()}).
 *
 * <p>Bounded: {@code -Dpodnuma.soak.duration} (default {@link #SHORT_DURATION}, the short version of the default run);
 * {@code -Dpodnuma.soak.seed} replays the draw. The full soak is {@code scripts/soak}.
 */
@ExtendWith(ControlPlaneExtension.class)
class FaultSoakIT {

    /** The documented window (behaviour.md, "Fault soak"): twice the reconcile period of these tests. */
    static final Duration WINDOW = Duration.ofSeconds(2);
    /** How long the records may disagree after convergence: the same window (they are written one after the other). */
    static final Duration RECORDS_GRACE = WINDOW;

    static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(45);
    /**
     * Faults of the default run, at least (the run goes on until every kind was injected); a constant so that
     * DocsFiguresTest holds the docs that state it to it.
     */
    static final Duration SHORT_DURATION = Duration.ofSeconds(12);

    /** How often a fault that missed its moment is tried again before the run gives it up (and fails). */
    static final int MAX_AGAIN = 3;

    static final int MIN_ALIVE = 3;
    static final int MAX_ALIVE = 8;
    static final CpuList EXCLUSIVE = CpuList.of(1);
    static final CpuList ALL = CpuList.of(0, 1);
    static final CpuList RESERVED = CpuList.of(0);

    /**
     * The kinds the process driver offers (STATE_DIR_READ_ONLY and STATE_DIR_FULL where a tmpfs can be mounted over the
     * state directory; the exact crash points are CrashSoakTest's). A deleted policy reaches an agent as its node's
     * label removed by the operator's cleanup, hence NODE_LABEL_REMOVED here and POLICY_DELETED in the operator soak.
     */
    static final List<FaultKind> KINDS = List.of(
            FaultKind.AGENT_KILL9,
            FaultKind.AGENT_KILL9_AT_START,
            FaultKind.AGENT_KILL9_DURING_SYNC,
            FaultKind.AGENT_KILL9_AFTER_CHECKPOINT,
            FaultKind.AGENT_KILL9_DURING_SHUTDOWN,
            FaultKind.AGENT_SIGTERM,
            FaultKind.API_SERVER_RESTART,
            FaultKind.ETCD_RESTART,
            FaultKind.CGROUP_WRITE_EBUSY,
            FaultKind.CGROUP_WRITE_ENOSPC,
            FaultKind.CGROUP_WRITE_EACCES,
            FaultKind.STATE_DIR_READ_ONLY,
            FaultKind.STATE_DIR_FULL,
            FaultKind.CHECKPOINT_TRUNCATED,
            FaultKind.NODE_REBOOT,
            FaultKind.NODE_LABEL_REMOVED);

    /** A running container as the sampler sees it. */
    record Live(String podUid, String name, PodContainer cgroup, long pid) {}

    /** One pod of the churn. */
    static final class TestPod {
        final String name;
        final Kind kind;
        final String uid;
        final Map<String, Live> containers = new TreeMap<>();
        volatile boolean deleted;

        TestPod(String name, Kind kind, String uid) {
            this.name = name;
            this.kind = kind;
            this.uid = uid;
        }
    }

    @TempDir
    Path dir;

    private ControlPlane cp;
    private KubeletLikeHost host;
    private AgentProcess agent;
    private SharedIndexInformer<Pod> informer;
    private String node;
    private String ns;
    private Random rnd;
    private TopologyFingerprint fingerprint;
    private Path faultControl;
    private TmpfsStateDir stateMount;

    private final Map<String, TestPod> pods = new ConcurrentHashMap<>();
    private final Map<String, Live> live = new ConcurrentHashMap<>();
    private final Set<String> deletedUids = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> writableSince = new AtomicReference<>();
    private final AtomicReference<FaultKind> current = new AtomicReference<>(FaultKind.AGENT_KILL9);
    private final SoakTally tally = new SoakTally();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong samples = new AtomicLong();
    private volatile boolean sampling = true;
    private int created;
    /** When the last fault was lifted (the agent started again, writes allowed again, the API server started). */
    private long liftedAt;
    /** Whether the fault just injected reached the moment it aims at; null for a fault that aims at none. */
    private Boolean reached;

    /**
     * In the short version: the cgroup write and state directory faults (tens of ms each) eight times their weight,
     * the rest 1.
     */
    static int shortWeight(FaultKind k) {
        return k.name().startsWith("CGROUP_WRITE_") || needsStateMount(k) ? 8 * k.weight() : 1;
    }

    /** The faults made on the tmpfs over the state directory. */
    static boolean needsStateMount(FaultKind k) {
        return k == FaultKind.STATE_DIR_READ_ONLY || k == FaultKind.STATE_DIR_FULL;
    }

    /** Whether recovering from the fault starts a new agent process. */
    static boolean restarts(FaultKind k) {
        return switch (k) {
            case CGROUP_WRITE_EBUSY,
                    CGROUP_WRITE_ENOSPC,
                    CGROUP_WRITE_EACCES,
                    API_SERVER_RESTART,
                    ETCD_RESTART,
                    STATE_DIR_READ_ONLY,
                    STATE_DIR_FULL -> false;
            default -> true;
        };
    }

    @BeforeAll
    static void crds(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaNodeStates());
    }

    @AfterEach
    void tearDown() throws Exception {
        sampling = false;
        if (cp != null && !cp.etcdRunning()) {
            cp.startEtcd();
        }
        if (cp != null && !cp.apiServerRunning()) {
            cp.startApiServer();
        }
        if (informer != null) {
            informer.close();
        }
        if (agent != null) {
            agent.close();
        }
        if (stateMount != null) {
            stateMount.close();
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void noInvariantBreaksUnderRandomFaultsOfAPodChurn(ControlPlane cp) throws Exception {
        this.cp = cp;
        host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS);
        Assumptions.assumeTrue(
                host.cpus().equals(ALL), "written for a host with CPUs 0-1, this one has " + host.cpus());
        Duration duration = Duration.parse(System.getProperty("podnuma.soak.duration", SHORT_DURATION.toString()));
        long seed = Long.getLong("podnuma.soak.seed", System.nanoTime());
        System.out.println("FaultSoakIT seed " + seed + " duration " + duration + " (-Dpodnuma.soak.seed=" + seed
                + " replays the draw)");
        rnd = new Random(seed);
        fingerprint = TopologyFingerprint.of(SysfsTopologyReader.host().read());
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        node = cp.ensureNode(
                "soak-" + suffix,
                Map.of("podnuma.io/policy", CrashTestSetup.POLICY),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        ns = "soak-" + suffix;
        cp.kubectl("create", "namespace", ns).assertSuccess();
        informer = cp.client().pods().inNamespace(ns).inform();
        faultControl = dir.resolve("cgroup-write-fault");
        agent = AgentProcess.withConfig(
                dir.resolve("agent"), CrashTestSetup.agentConfig(node, host.root()), cp.kubeconfig());
        agent.environment(FaultInjectingCgroupFiles.ENV, faultControl.toString());
        TmpfsStateDir.removeLeftovers();
        stateMount = TmpfsStateDir.mount(agent.stateDir()).orElse(null);
        startAndAwaitReady();
        for (int i = 0; i < MIN_ALIVE; i++) {
            create(i == 0 ? Kind.CPU_CONTAINER : Kind.BURSTABLE);
        }
        startContainersOfRunningPods(Duration.ofSeconds(20));

        Thread sampler = Thread.ofPlatform().name("soak-sampler").daemon().start(this::sample);
        // The short version favours the faults that need no agent restart (a restart is a JVM start, seconds).
        boolean full = duration.compareTo(Duration.ofMinutes(2)) > 0 || Boolean.getBoolean("podnuma.soak.full");
        List<FaultKind> kinds = KINDS.stream()
                .filter(k -> !needsStateMount(k) || stateMount != null)
                .toList();
        FaultDraw draw = new FaultDraw(kinds, k -> full ? k.weight() : shortWeight(k), rnd);
        Map<FaultKind, Integer> again = new EnumMap<>(FaultKind.class);
        long loopStart = System.nanoTime();
        long deadline = loopStart + duration.toNanos();
        while ((System.nanoTime() < deadline || draw.covering()) && failures.isEmpty()) {
            for (int i = rnd.nextInt(3); i > 0; i--) {
                churnStep();
            }
            FaultKind k = draw.next();
            current.set(k);
            Map<String, SortedMap<String, String>> before = placements();
            reached = null;
            inject(k);
            tally.injected(k);
            if (reached != null) {
                tally.aimed(k, reached);
                if (!reached && tally.reached(k) == 0 && again.merge(k, 1, Integer::sum) <= MAX_AGAIN) {
                    draw.again(k);
                }
            }
            if (!awaitConverged()) {
                failures.add(k + ": no convergence within " + CONVERGE_TIMEOUT + " ("
                        + convergenceGap().orElse("converged just now") + "):\n" + agent.logTail());
                break;
            }
            tally.converged(k, Duration.ofNanos(System.nanoTime() - liftedAt));
            checkRecords(k);
            for (Violation v : Placements.acrossFault(k, before, placements(), liveUids(), tally)) {
                tally.violated(k, v);
                failures.add(k + " (after convergence): " + v);
            }
        }
        Duration loop = Duration.ofNanos(System.nanoTime() - loopStart);
        sampling = false;
        sampler.join(5_000);
        System.out.printf(
                "FaultSoakIT: %d injections in %d s (at least %s, until every kind was injected), %d pods created, %d"
                        + " samples (%.0f/s)%n%s",
                tally.injections(),
                loop.toSeconds(),
                duration,
                created,
                samples.get(),
                samples.get() / Math.max(1.0, loop.toMillis() / 1000.0),
                tally.render());
        assertThat(failures).as("failures").isEmpty();
        assertThat(tally.violations()).as("invariant violations").isEmpty();
        assertThat(tally.neverInjected(kinds)).as("kinds never injected").isEmpty();
        assertThat(tally.neverReached())
                .as("faults that never reached the moment they aim at")
                .isEmpty();
    }

    // ---- the faults ----

    private void inject(FaultKind k) throws Exception {
        switch (k) {
            case AGENT_KILL9 -> {
                kill9();
                for (int i = rnd.nextInt(3); i > 0; i--) {
                    churnStep();
                }
                startAndAwaitReady();
            }
            case AGENT_KILL9_AT_START -> {
                kill9();
                agent.start();
                TimeUnit.MILLISECONDS.sleep(rnd.nextInt(400));
                reached = killBeforeReady();
                startAndAwaitReady();
            }
            case AGENT_KILL9_DURING_SYNC -> {
                kill9();
                agent.start();
                // The full sync runs between the first pod list and /readyz: the NumaNodeState heartbeat of a new
                // start is not written before it, so "alive, log shows the checkpoint read, not yet ready" is it.
                awaitLog("checkpoint", Duration.ofSeconds(20));
                TimeUnit.MILLISECONDS.sleep(rnd.nextInt(150));
                boolean read = agent.lastLog().contains("checkpoint");
                reached = killBeforeReady() && read;
                startAndAwaitReady();
            }
            case AGENT_KILL9_AFTER_CHECKPOINT -> killBetweenCheckpointAndCgroupWrite();
            case AGENT_KILL9_DURING_SHUTDOWN -> {
                writableSince.set(null);
                ProcessHandle.of(agent.pid()).ifPresent(ProcessHandle::destroy);
                // The shutdown hook begins with the Departure question, then stops: aimed at that stop.
                awaitLog("stopping:", Duration.ofSeconds(10));
                TimeUnit.MILLISECONDS.sleep(rnd.nextInt(20));
                agent.kill9();
                String log = agent.lastLog();
                reached = log.contains("stopping:") && !log.contains("AgentDaemon - stopped");
                startAndAwaitReady();
            }
            case AGENT_SIGTERM -> {
                writableSince.set(null);
                int exit = agent.terminate(Duration.ofSeconds(30));
                if (exit != 143) {
                    failures.add("SIGTERM: exit " + exit + "\n" + agent.logTail());
                }
                startAndAwaitReady();
            }
            case API_SERVER_RESTART -> {
                cp.stopApiServer();
                TimeUnit.MILLISECONDS.sleep(500 + rnd.nextInt(1500));
                liftedAt = System.nanoTime();
                cp.startApiServer();
            }
            case ETCD_RESTART -> {
                cp.stopEtcd();
                TimeUnit.MILLISECONDS.sleep(500 + rnd.nextInt(1500));
                liftedAt = System.nanoTime();
                cp.startEtcd();
            }
            case STATE_DIR_READ_ONLY -> {
                // The agent goes on pinning; the checkpoint follows at the first reconcile after the remount.
                stateMount.readOnly();
                churnStep();
                TimeUnit.MILLISECONDS.sleep(20 + rnd.nextInt(200));
                stateMount.writable();
                liftedAt = System.nanoTime();
            }
            case STATE_DIR_FULL -> {
                // As read-only, with ENOSPC: the temp file is made, its write fails, the old checkpoint stays.
                stateMount.full();
                churnStep();
                TimeUnit.MILLISECONDS.sleep(20 + rnd.nextInt(200));
                stateMount.notFull();
                liftedAt = System.nanoTime();
            }
            case CGROUP_WRITE_EBUSY, CGROUP_WRITE_ENOSPC, CGROUP_WRITE_EACCES -> {
                writableSince.set(null);
                Files.writeString(faultControl, k.name().substring("CGROUP_WRITE_".length()));
                churnStep();
                TimeUnit.MILLISECONDS.sleep(20 + rnd.nextInt(200));
                Files.writeString(faultControl, "");
                liftedAt = System.nanoTime();
                writableSince.set(Instant.now());
            }
            case CHECKPOINT_TRUNCATED -> {
                kill9();
                byte[] whole = Files.readAllBytes(agent.checkpoint());
                Files.write(agent.checkpoint(), java.util.Arrays.copyOf(whole, rnd.nextInt(Math.max(1, whole.length))));
                startAndAwaitReady();
            }
            case NODE_REBOOT -> reboot();
            case NODE_LABEL_REMOVED -> leaveWithTheRestoreCut();
            default -> throw new IllegalArgumentException("the process driver has no injector for " + k);
        }
    }

    /**
     * Lands a kill between a checkpoint write and the cgroup writes it decides: cgroup writes fail (EBUSY) while a
     * Guaranteed pod is admitted, so once the checkpoint names it the cgroups are provably still unwritten (the
     * sampler sees them wide), and the agent dies there; a crash in that gap leaves the same files. The node's one
     * exclusive CPU is freed first: a pod the agent refuses changes no checkpoint, so the moment would not come.
     */
    private void killBetweenCheckpointAndCgroupWrite() throws Exception {
        for (TestPod p : alive()) {
            if (p.kind.guaranteed()) {
                delete(p);
            }
        }
        awaitConverged();
        writableSince.set(null);
        Files.writeString(faultControl, "EBUSY");
        byte[] before = Files.readAllBytes(agent.checkpoint());
        create(rnd.nextBoolean() ? Kind.CPU_CONTAINER : Kind.POD_BUDGET);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < until && java.util.Arrays.equals(before, Files.readAllBytes(agent.checkpoint()))) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        reached = !java.util.Arrays.equals(before, Files.readAllBytes(agent.checkpoint()));
        agent.kill9();
        Files.writeString(faultControl, "");
        startAndAwaitReady();
    }

    /**
     * The node leaves podnuma and the agent's restore is cut: the label removed, SIGTERM (as the kubelet stops a pod
     * the DaemonSet no longer selects), SIGKILL at a random moment of the restore, whose cgroup writes are slowed
     * ({@link FaultInjectingCgroupFiles#SLOW}) so that it lasts long enough to be cut. What the design (behaviour.md,
     * "Shutdown") leaves then: a finished restore, every container on every CPU and no checkpoint; a cut one, each
     * container on its pinned set or on every CPU (nothing else) and the checkpoint, which the next agent adopts. Then
     * the label comes back and an agent starts; the pods' placement may differ afterwards (the node left).
     */
    private void leaveWithTheRestoreCut() throws Exception {
        // The churn step just before may still be moving pins (a new exclusive CPU shrinks the shared pool): what a
        // container was pinned to is what the node settled on.
        awaitConverged();
        writableSince.set(null);
        Map<String, CpuList> pinned = new HashMap<>();
        for (Live l : live.values()) {
            pinned.put(l.cgroup().containerId(), host.cpusetOf(l.cgroup()));
        }
        label(false);
        Files.writeString(faultControl, FaultInjectingCgroupFiles.SLOW);
        ProcessHandle.of(agent.pid()).ifPresent(ProcessHandle::destroy);
        awaitLog("giving every container everything back", Duration.ofSeconds(10));
        TimeUnit.MILLISECONDS.sleep(
                rnd.nextInt(1 + (int) FaultInjectingCgroupFiles.SLOW_WRITE.toMillis() * Math.max(1, live.size())));
        agent.kill9();
        Files.writeString(faultControl, "");
        String log = agent.lastLog();
        boolean finished = log.contains("containers got every CPU and memory node back");
        reached = log.contains("giving every container everything back") && !finished;
        // A cut restore leaves the checkpoint the next agent adopts: a container may also be on the set it names (on
        // a loaded host the agent can pin a container that had just started after the snapshot above, and die
        // before its restore got to it).
        Optional<Map<String, CpuList>> decided =
                finished ? Optional.empty() : checkpointIfReadable().map(SoakExpectations::exclusiveByContainer);
        for (Live l : live.values()) {
            CpuList now = host.cpusetOf(l.cgroup());
            CpuList was = pinned.getOrDefault(l.cgroup().containerId(), ALL);
            Optional<CpuList> checkpointed = decided.map(exclusive ->
                    exclusive.getOrDefault(l.podUid() + "/" + l.name(), exclusive.isEmpty() ? ALL : RESERVED));
            boolean asDecided = checkpointed.filter(now::equals).isPresent();
            if (!now.equals(ALL) && (finished || !(now.equals(was) || asDecided))) {
                failures.add("node label removed: after a " + (finished ? "finished" : "cut") + " restore container "
                        + l.podUid() + "/" + l.name() + " runs on " + now + " (pinned to " + was
                        + " before, " + checkpointed.map(CpuList::toString).orElse("no checkpoint")
                        + " in the checkpoint left, every CPU is " + ALL + ")");
            }
        }
        if (finished == Files.exists(agent.checkpoint())) {
            failures.add("node label removed: the restore " + (finished ? "finished" : "was cut") + " and the"
                    + " checkpoint is " + (finished ? "still there" : "gone") + "\n" + agent.logTail());
        }
        label(true);
        startAndAwaitReady();
    }

    /** Puts the node's policy label on or takes it off. */
    private void label(boolean on) {
        Edits.retryingConflicts(() -> cp.client().nodes().withName(node).edit(n -> {
            if (on) {
                n.getMetadata().getLabels().put("podnuma.io/policy", CrashTestSetup.POLICY);
            } else {
                n.getMetadata().getLabels().remove("podnuma.io/policy");
            }
            return n;
        }));
    }

    /**
     * Kills the agent aimed at its start, before it is ready; whether it was: /readyz not answering 200 just before
     * and no ready line in its log after ("ready" answers a moment before the line).
     */
    private boolean killBeforeReady() throws Exception {
        boolean answered;
        try {
            answered = agent.health("/readyz") == 200;
        } catch (IOException notListening) {
            answered = false;
        }
        kill9();
        return !answered && !agent.lastLog().contains("AgentDaemon - ready: ");
    }

    /** Every container recreated with a new ID while the agent is down; the pod status names the new IDs. */
    private void reboot() throws Exception {
        kill9();
        for (TestPod p : pods.values()) {
            if (p.deleted || p.containers.isEmpty()) {
                continue;
            }
            stopContainers(p);
            Pod pod = cp.client().pods().inNamespace(ns).withName(p.name).get();
            if (pod == null) {
                continue;
            }
            pod.getStatus().getContainerStatuses().forEach(s -> s.setContainerID(newId()));
            pod.getStatus().getInitContainerStatuses().forEach(s -> s.setContainerID(newId()));
            cp.client().pods().inNamespace(ns).resource(pod).updateStatus();
        }
        startAndAwaitReady();
        startContainersOfRunningPods(Duration.ofSeconds(20));
    }

    private static String newId() {
        return PodContainer.CONTAINERD_PREFIX + (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
    }

    private void kill9() throws InterruptedException {
        writableSince.set(null);
        agent.kill9();
    }

    private void startAndAwaitReady() throws Exception {
        writableSince.set(null);
        liftedAt = System.nanoTime();
        if (!agent.isAlive()) {
            agent.start();
        }
        agent.awaitReady(Duration.ofSeconds(90));
        writableSince.set(Instant.now());
    }

    private void awaitLog(String text, Duration timeout) throws Exception {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            if (Files.exists(agent.log()) && agent.lastLog().contains(text)) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    // ---- the churn ----

    private void churnStep() throws Exception {
        startContainersOfRunningPods(Duration.ZERO);
        List<TestPod> alive = alive();
        if (alive.size() < MIN_ALIVE || (alive.size() < MAX_ALIVE && rnd.nextInt(100) < 55)) {
            Kind[] kinds = Kind.values();
            create(rnd.nextBoolean() ? Kind.BURSTABLE : kinds[1 + rnd.nextInt(kinds.length - 1)]);
        } else if (!alive.isEmpty()) {
            delete(alive.get(rnd.nextInt(alive.size())));
        }
    }

    private void create(Kind kind) {
        String name = String.format("p-%05d", ++created);
        Pod made = cp.client()
                .pods()
                .inNamespace(ns)
                .resource(CrashTestSetup.pod(kind, node, name))
                .create();
        pods.put(name, new TestPod(name, kind, made.getMetadata().getUid()));
    }

    private void delete(TestPod p) throws Exception {
        p.deleted = true;
        deletedUids.add(p.uid);
        stopContainers(p);
        cp.client().pods().inNamespace(ns).withName(p.name).withGracePeriod(0).delete();
        pods.remove(p.name);
    }

    /** Starts the containers of pods kwok reports Running, waiting up to {@code wait} for all of them. */
    private void startContainersOfRunningPods(Duration wait) throws Exception {
        long until = System.nanoTime() + wait.toNanos();
        do {
            boolean all = true;
            for (TestPod p : alive()) {
                if (!p.containers.isEmpty()) {
                    continue;
                }
                Optional<Map<String, PodContainer>> cs =
                        CrashTestSetup.containers(informer.getStore().getByKey(ns + "/" + p.name));
                if (cs.isEmpty() || cs.get().values().stream().anyMatch(c -> stale(c))) {
                    all = false;
                    continue;
                }
                for (Map.Entry<String, PodContainer> e : cs.get().entrySet()) {
                    long pid = host.startContainer(e.getValue());
                    Live l = new Live(p.uid, e.getKey(), e.getValue(), pid);
                    p.containers.put(e.getKey(), l);
                    live.put(e.getValue().containerId(), l);
                }
            }
            if (all) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        } while (System.nanoTime() < until);
    }

    /** The informer still shows an ID the soak has ended (a reboot's status update not seen yet). */
    private final Set<String> endedIds = ConcurrentHashMap.newKeySet();

    private boolean stale(PodContainer c) {
        return endedIds.contains(c.containerId());
    }

    private void stopContainers(TestPod p) throws Exception {
        for (Live l : p.containers.values()) {
            live.remove(l.cgroup().containerId());
            endedIds.add(l.cgroup().containerId());
            host.stopContainer(l.cgroup());
        }
        p.containers.clear();
    }

    private List<TestPod> alive() {
        return pods.values().stream()
                .filter(p -> !p.deleted)
                .sorted((a, b) -> a.name.compareTo(b.name))
                .toList();
    }

    // ---- the sampler ----

    private void sample() {
        SampleCheck check = new SampleCheck(WINDOW);
        Map<String, CpuList> exclusive = Map.of();
        Set<String> everHeld = new TreeSet<>();
        while (sampling) {
            try {
                Optional<NodeState> state = checkpointIfReadable();
                Map<Record, Set<String>> records = new EnumMap<>(Record.class);
                if (state.isPresent()) {
                    exclusive = SoakExpectations.exclusiveByContainer(state.get());
                    records.put(Record.CHECKPOINT, state.get().pods().keySet());
                }
                List<ContainerSample> cs = new ArrayList<>();
                for (Live l : List.copyOf(live.values())) {
                    try {
                        CpuList cpuset = host.cpusetOf(l.cgroup());
                        CpuList affinity = KubeletLikeHost.allowedCpus(l.pid());
                        if (live.containsKey(l.cgroup().containerId())) {
                            cs.add(new ContainerSample(
                                    l.podUid(), l.name(), l.cgroup().containerId(), cpuset, List.of(affinity)));
                        }
                    } catch (IOException e) {
                        // stopped between the listing and the read
                    }
                }
                Set<String> livePods = new TreeSet<>();
                pods.values().stream().filter(p -> !p.deleted).forEach(p -> livePods.add(p.uid));
                state.ifPresent(s -> everHeld.addAll(s.pods().keySet()));
                everHeld.removeAll(deletedUids);
                FaultKind k = current.get();
                if (k.mayMovePins()) {
                    // the fault itself takes the checkpoint away (truncated, or deleted by the restore of a node
                    // that left); the agent rebuilds and may re-admit
                    everHeld.clear();
                    state.ifPresent(s -> everHeld.addAll(s.pods().keySet()));
                    records.remove(Record.CHECKPOINT);
                }
                Snapshot s = new Snapshot(
                        Instant.now(),
                        cs,
                        exclusive,
                        Optional.ofNullable(writableSince.get()),
                        livePods,
                        records,
                        everHeld);
                for (Violation v : check.check(s, deletedUids)) {
                    tally.violated(k, v);
                    failures.add(k + ": " + v);
                }
                samples.incrementAndGet();
            } catch (Exception e) {
                failures.add("sampler: " + e);
                return;
            }
        }
    }

    private Optional<NodeState> checkpointIfReadable() {
        return SoakExpectations.readCheckpoint(agent.checkpoint(), fingerprint);
    }

    // ---- convergence and the records ----

    /** The placement facts of the checkpoint's pods (none when it cannot be read). */
    private Map<String, SortedMap<String, String>> placements() {
        return checkpointIfReadable().map(SoakExpectations::placements).orElse(Map.of());
    }

    private Set<String> liveUids() {
        Set<String> out = new TreeSet<>();
        alive().forEach(p -> out.add(p.uid));
        return out;
    }

    /** Every running container on its wanted set and NumaNodeState naming every pod the checkpoint holds. */
    private boolean awaitConverged() throws Exception {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            startContainersOfRunningPods(Duration.ZERO);
            if (converged()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return false;
    }

    private boolean converged() throws Exception {
        return convergenceGap().isEmpty();
    }

    /** What still differs from a converged node, the first thing found; empty once converged. */
    private Optional<String> convergenceGap() throws Exception {
        if (!agent.isAlive() || !cp.apiServerRunning()) {
            return Optional.of("the agent or the API server is not running");
        }
        Optional<NodeState> state = checkpointIfReadable();
        if (state.isEmpty()) {
            return Optional.of("no readable checkpoint");
        }
        Map<String, CpuList> exclusive = SoakExpectations.exclusiveByContainer(state.get());
        CpuList shared = exclusive.isEmpty() ? ALL : RESERVED;
        for (TestPod p : alive()) {
            if (p.containers.isEmpty()) {
                return Optional.of("pod " + p.uid + " has no container started yet (kwok has not reported it Running)");
            }
            for (Live l : p.containers.values()) {
                CpuList want = exclusive.getOrDefault(p.uid + "/" + l.name(), shared);
                CpuList cpuset = host.cpusetOf(l.cgroup());
                CpuList allowed = KubeletLikeHost.allowedCpus(l.pid());
                if (!cpuset.equals(want) || !allowed.equals(want)) {
                    return Optional.of("container " + p.uid + "/" + l.name() + " wants " + want + ", its cpuset is "
                            + cpuset + " and its process may run on " + allowed);
                }
            }
        }
        NumaNodeState nns =
                cp.client().resources(NumaNodeState.class).withName(node).get();
        if (nns == null || nns.getStatus() == null) {
            return Optional.of("no NumaNodeState status");
        }
        Set<String> reported = AgentRecords.numaNodeStatePods(cp.client(), node);
        Set<String> held = new TreeSet<>(SoakExpectations.podNames(state.get()).values());
        return reported.equals(held)
                ? Optional.empty()
                : Optional.of("NumaNodeState names " + reported + ", the checkpoint holds " + held);
    }

    /**
     * After convergence: every live pod the checkpoint holds is in NumaNodeState and PodResources, each of its
     * containers placed there as in the checkpoint, within the grace of {@link AgentRecords#lastingLosses} (the records
     * are written one after the other).
     */
    private void checkRecords(FaultKind k) throws Exception {
        List<Violation> lost = AgentRecords.lastingLosses(
                () -> checkpointIfReadable()
                        .map(state ->
                                SoakExpectations.recordsDisagree(state, cp.client(), node, agent.socket(), liveUids()))
                        .orElse(List.of()),
                RECORDS_GRACE);
        for (Violation v : lost) {
            tally.violated(k, v);
            failures.add(k + " (after convergence): " + v);
        }
    }
}
