package io.podnuma.e2e.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.runtime.SoakExpectations;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.realnode.KubepodsCgroups;
import io.podnuma.testkit.realnode.WorkloadPods;
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
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak on the real node (kubelet + containerd on this machine, the agent as the DaemonSet pod the real
 * operator rolls out, pinning as an NRI plugin): a churn of workload pods (a Guaranteed pod with a one-CPU pod budget,
 * which holds the node's one exclusive CPU, and handovers of it: the holder deleted and at once a new budgeted pod
 * created, so that two budgeted pods are on the node together, the leaving one's containers running out their grace
 * period, and a CPU given to the new one before the old one's containers left it would be seen; Burstable pods, some
 * with a native sidecar) and, between churn steps, a fault drawn at random
 * (seeded, the seed printed; each kind once first, from a seeded place in the list): the agent's JVM killed with SIGKILL (the kubelet restarts the
 * container), the agent pod deleted (the DaemonSet's rollout: SIGTERM, a new pod), containerd restarted, the kubelet
 * restarted, kube-apiserver and etcd stopped and started. A sampler reads every container cgroup under kubepods (the
 * pods' containers, their sandboxes and the agent's own) with its processes' affinities and the agent's checkpoint as
 * often as it can and checks {@link Invariants} at every sample, also {@link Invariants#heldByTwo} from the cgroups
 * alone (no CPU outside the reserved one is the whole cpuset of containers of two pods); after each fault the soak
 * waits until the node converged (the agent pod Ready, every workload container on its set, NumaNodeState holding the
 * checkpoint's pods), times it from the fault's end, checks NumaNodeState and PodResources hold every live pod of the
 * checkpoint with each container placed as the checkpoint places it ({@link Placements}), and that every pod pinned
 * before the fault and still alive kept exactly its CPUs and memory nodes (none of these faults may move a pin).
 *
 * <p>Bounded: {@code -Dpodnuma.soak.node.injections} (default 3, three kinds in turn from a seeded place; six cover
 * every kind) and {@code
 * -Dpodnuma.soak.node.duration} (a cap on the fault loop, default {@code PT3M}); {@code -Dpodnuma.soak.seed} replays
 * the draw. {@code scripts/soak node [N]} runs a longer one.
 */
class RealNodeSoakE2E {

    static final String POLICY = "soak";
    /** The documented window (behaviour.md, "Fault soak"): twice the reconcile period the soak's agent runs with. */
    static final Duration WINDOW = Duration.ofSeconds(2);
    /** How long the records may disagree after convergence: the same window (they are written one after the other). */
    static final Duration RECORDS_GRACE = WINDOW;

    static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(120);
    static final int MIN_ALIVE = 2;
    static final int MAX_ALIVE = 4;
    static final CpuList ALL = CpuList.of(0, 1);
    /** The CPUs outside the reserved one: what a pod budget can hold. */
    static final CpuList EXCLUSIVE_CAPABLE = CpuList.of(1);
    /**
     * Budgeted pods alive (not being deleted) at once at most. A handover adds the second: with the leaving one they
     * request both CPUs of the node, and the kubelet rejects a third (OutOfcpu: it counts a terminating pod).
     */
    static final int MAX_BUDGETED = 1;

    /** The default run's injections: three kinds, taken in turn from a seeded place in {@link #KINDS}. */
    static final int DEFAULT_INJECTIONS = 3;

    /** The faults the real node offers. */
    static final List<FaultKind> KINDS = List.of(
            FaultKind.AGENT_KILL9,
            FaultKind.AGENT_SIGTERM,
            FaultKind.CONTAINERD_RESTART,
            FaultKind.KUBELET_RESTART,
            FaultKind.API_SERVER_RESTART,
            FaultKind.ETCD_RESTART);

    /** The shapes of the churn's pods. */
    enum Shape {
        /** Guaranteed, a one-CPU pod budget, app container and native sidecar sharing the bubble. */
        BUDGETED,
        /** Burstable, one container. */
        BURSTABLE,
        /** Burstable, one container and a native sidecar. */
        BURSTABLE_SIDECAR
    }

    /** One pod of the churn. */
    record TestPod(String name, Shape shape, String uid) {}

    @TempDir
    Path workDir;

    private RealNode node;
    private LocalControlPlane plane;
    private RealNodeAgent agent;
    private SharedIndexInformer<Pod> informer;
    private Random rnd;
    private TopologyFingerprint fingerprint;
    private Path checkpoint;
    private Path podResourcesSocket;
    private final String ns = "soak";

    private final Map<String, TestPod> pods = new ConcurrentHashMap<>();
    private final Set<String> deletedUids = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> writableSince = new AtomicReference<>();
    private final AtomicReference<FaultKind> current = new AtomicReference<>(FaultKind.AGENT_KILL9);
    private final SoakTally tally = new SoakTally();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong samples = new AtomicLong();
    private int handovers;
    private volatile boolean sampling = true;
    private int created;
    /** When the last fault ended (the kill, the delete, the component started again). */
    private long liftedAt;

    @AfterEach
    void tearDown() throws Exception {
        sampling = false;
        try {
            if (plane != null && !plane.etcdRunning()) {
                plane.startEtcd();
            }
            if (plane != null && !plane.apiServerRunning()) {
                plane.startApiServer();
            }
            if (informer != null) {
                informer.close();
            }
            if (agent != null) {
                agent.close();
            }
        } finally {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void noInvariantBreaksUnderRandomFaultsOfAPodChurnOnTheRealNode() throws Exception {
        RealNode.assumeAvailable(RealNodeSoakE2E.class);
        Optional<String> noImages = RealNodeAgent.whyNoImages();
        noImages.ifPresent(why -> System.err.println("[RealNodeSoakE2E] skipped: " + why));
        Assumptions.assumeTrue(noImages.isEmpty(), () -> noImages.orElse(""));
        CpuList cpus = CpuList.parse(Files.readString(KubepodsCgroups.ROOT.resolveSibling("cpuset.effective_cpus")));
        Assumptions.assumeTrue(
                cpus.equals(ALL),
                "written for a node with CPUs 0-1 (CPU 0 reserved, CPU 1 exclusive); this has " + cpus);
        int injections = Integer.getInteger("podnuma.soak.node.injections", DEFAULT_INJECTIONS);
        Duration cap = Duration.parse(System.getProperty("podnuma.soak.node.duration", "PT3M"));
        long seed = Long.getLong("podnuma.soak.seed", System.nanoTime());
        System.out.println("RealNodeSoakE2E seed " + seed + ", " + injections + " injections at most, cap " + cap
                + " (-Dpodnuma.soak.seed=" + seed + " replays the draw)");
        rnd = new Random(seed);
        fingerprint = TopologyFingerprint.of(SysfsTopologyReader.host().read());

        long t0 = System.nanoTime();
        node = RealNode.startWithPlane(RealNodeOptions.defaults().withImages(RealNodeAgent.images()));
        plane = node.plane();
        plane.ensureNamespace(ns);
        podResourcesSocket = node.runDir().resolve("pod-resources/podnuma.sock");
        RealNodeAgent.select(plane, node, POLICY);
        agent = RealNodeAgent.deploy(
                plane,
                node,
                workDir,
                POLICY,
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false),
                Map.of(
                        // In the node's run directory (its cleanup removes it), not the default /var/lib/podnuma.
                        "agent-pod-resources-socket",
                        podResourcesSocket.toString(),
                        "agent-reconcile-period",
                        "1s",
                        "agent-pinning",
                        "nri",
                        "agent-nri-socket",
                        node.nriSocket().toString()));
        agent.awaitReady(Optional.empty());
        writableSince.set(Instant.now());
        Path state = node.runDir().resolve("podnuma-agent");
        checkpoint = state.resolve("node-state.json");
        informer = plane.client()
                .pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node.nodeName())
                .inform();
        create(Shape.BUDGETED);
        create(Shape.BURSTABLE_SIDECAR);
        assertThat(awaitConverged())
                .as("the node converged before the first fault:\n" + agent.logs())
                .isTrue();
        assertThat(checkpoint).as("the agent's checkpoint on the host").isRegularFile();
        assertThat(podResourcesSocket)
                .as("the agent's PodResources socket on the host")
                .exists();
        // Not vacuous: the sampler's expectation holds the budgeted pod's two containers on CPU 1, and they are there.
        TestPod budgeted = pods.get("p-0001");
        Map<String, CpuList> expected = SoakExpectations.exclusiveByContainer(
                SoakExpectations.readCheckpoint(checkpoint, fingerprint).orElseThrow());
        assertThat(expected)
                .as("the checkpoint's exclusive containers")
                .isEqualTo(Map.of(budgeted.uid() + "/engine", CpuList.of(1), budgeted.uid() + "/proxy", CpuList.of(1)));
        assertThat(readContainers().stream()
                        .filter(c ->
                                c.pod().equals(budgeted.uid()) && !c.container().startsWith("sandbox-"))
                        .map(ContainerSample::cpuset))
                .as("the budgeted pod's container cgroups")
                .containsExactly(CpuList.of(1), CpuList.of(1));
        Duration setUp = Duration.ofNanos(System.nanoTime() - t0);

        Thread sampler = Thread.ofPlatform().name("soak-sampler").daemon().start(this::sample);
        // A handover of CPU 1 under the sampler before the first fault (the churn makes more); not vacuous: CPU 1 went
        // to the new pod.
        TestPod next = handover(budgeted);
        assertThat(awaitConverged())
                .as("the node converged after the first handover:\n" + agent.logs())
                .isTrue();
        assertThat(SoakExpectations.exclusiveByContainer(
                        SoakExpectations.readCheckpoint(checkpoint, fingerprint).orElseThrow()))
                .as("the checkpoint's exclusive containers after the handover")
                .isEqualTo(Map.of(next.uid() + "/engine", CpuList.of(1), next.uid() + "/proxy", CpuList.of(1)));
        FaultDraw draw = new FaultDraw(KINDS, rnd);
        // Each kind once first, from a seeded place, so short runs cover every kind over a few seeds.
        int firstKind = rnd.nextInt(KINDS.size());
        long loopStart = System.nanoTime();
        long deadline = loopStart + cap.toNanos();
        for (int i = 0; i < injections && System.nanoTime() < deadline && failures.isEmpty(); i++) {
            for (int s = rnd.nextInt(3); s > 0; s--) {
                churnStep();
            }
            FaultKind k = i < KINDS.size() ? KINDS.get((firstKind + i) % KINDS.size()) : draw.next();
            current.set(k);
            Map<String, SortedMap<String, String>> before = placements();
            inject(k);
            tally.injected(k);
            if (!awaitConverged()) {
                failures.add(k + ": no convergence within " + CONVERGE_TIMEOUT + "; the agent's log:\n" + agent.logs());
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
                "RealNodeSoakE2E: %d injections in %d s (set-up %d s), %d pods created, %d handovers of CPU 1, %d samples"
                        + " (%.1f/s)%n%s",
                tally.injections(),
                loop.toSeconds(),
                setUp.toSeconds(),
                created,
                handovers,
                samples.get(),
                samples.get() / Math.max(1.0, loop.toMillis() / 1000.0),
                tally.render());
        assertThat(failures).as("failures").isEmpty();
        assertThat(tally.violations()).as("invariant violations").isEmpty();
        assertThat(tally.injections()).isPositive();
        assertThat(handovers).as("handovers of CPU 1").isPositive();
    }

    // ---- the faults ----

    private void inject(FaultKind k) throws Exception {
        switch (k) {
            case AGENT_KILL9 -> {
                long pid = agentPid();
                int restarts = agentRestarts();
                writableSince.set(null);
                liftedAt = System.nanoTime();
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                // Pods born while the agent is down start unpinned (NRI fails open); the agent pins them when back.
                for (int i = rnd.nextInt(2); i > 0; i--) {
                    churnStep();
                }
                awaitAgentReady(restarts);
            }
            case AGENT_SIGTERM -> {
                writableSince.set(null);
                liftedAt = System.nanoTime();
                agent.restart();
                writableSince.set(Instant.now());
            }
            case CONTAINERD_RESTART -> {
                liftedAt = System.nanoTime();
                node.restartContainerd();
            }
            case KUBELET_RESTART -> {
                liftedAt = System.nanoTime();
                node.restartKubelet();
            }
            case API_SERVER_RESTART -> {
                plane.stopApiServer();
                TimeUnit.MILLISECONDS.sleep(500 + rnd.nextInt(1500));
                liftedAt = System.nanoTime();
                plane.startApiServer();
            }
            case ETCD_RESTART -> {
                plane.stopEtcd();
                TimeUnit.MILLISECONDS.sleep(500 + rnd.nextInt(1500));
                liftedAt = System.nanoTime();
                plane.startEtcd();
            }
            default -> throw new IllegalArgumentException("the real node has no injector for " + k);
        }
    }

    /** The agent JVM's host pid: the first process of the agent container, from containerd. */
    private long agentPid() {
        Pod pod = agent.pod().orElseThrow(() -> new AssertionError("no agent pod to kill"));
        String id = pod.getStatus().getContainerStatuses().getFirst().getContainerID();
        return node.containerPid(id).orElseThrow(() -> new AssertionError("no running task for the agent " + id));
    }

    private int agentRestarts() {
        Integer n = agent.pod()
                .orElseThrow(() -> new AssertionError("no agent pod"))
                .getStatus()
                .getContainerStatuses()
                .getFirst()
                .getRestartCount();
        return n == null ? 0 : n;
    }

    /**
     * Waits for the agent pod to be Ready again after its container's {@code restarts}-th restart (the kubelet
     * restarted it) and marks it able to pin.
     */
    private void awaitAgentReady(int restarts) throws Exception {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        // The kubelet notices the death within a second or so; Ready goes False first, then True again.
        while (System.nanoTime() < until) {
            Optional<Pod> p = agent.pod();
            if (p.isPresent() && RealNodeAgent.ready(p.get()) && agentRunningAgain(p.get(), restarts)) {
                writableSince.set(Instant.now());
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("the agent was not Ready again within " + CONVERGE_TIMEOUT + "\n" + agent.logs());
    }

    /** The agent container restarted since the kill and runs a process containerd knows. */
    private boolean agentRunningAgain(Pod p, int restarts) {
        ContainerStatus s = p.getStatus().getContainerStatuses().getFirst();
        return s.getState() != null
                && s.getState().getRunning() != null
                && s.getRestartCount() != null
                && s.getRestartCount() > restarts
                && node.containerPid(s.getContainerID()).isPresent();
    }

    // ---- the churn ----

    private void churnStep() throws Exception {
        List<TestPod> alive = alive();
        List<TestPod> budgeted =
                alive.stream().filter(p -> p.shape() == Shape.BUDGETED).toList();
        if (!budgeted.isEmpty() && rnd.nextInt(100) < 25) {
            handover(budgeted.get(rnd.nextInt(budgeted.size())));
        } else if (alive.size() < MIN_ALIVE || (alive.size() < MAX_ALIVE && rnd.nextInt(100) < 55)) {
            Shape s = Shape.values()[rnd.nextInt(Shape.values().length)];
            create(s == Shape.BUDGETED && budgeted.size() >= MAX_BUDGETED ? Shape.BURSTABLE : s);
        } else if (!alive.isEmpty()) {
            delete(alive.get(rnd.nextInt(alive.size())));
        }
    }

    /**
     * Delete-then-create: the budgeted pod force-deleted (grace 0: the API object goes at once, while the kubelet stops
     * its containers afterwards) and a new budgeted pod created at once. The agent releases the old pod's CPU when its
     * object goes, so the new pod may be admitted onto it while the old pod's containers still run there: the CPU may
     * go to the new pod only once they have left it, which the sampler ({@link Invariants#heldByTwo}) would see
     * otherwise. Returns the new pod.
     */
    private TestPod handover(TestPod old) throws Exception {
        deletedUids.add(old.uid());
        pods.remove(old.name());
        plane.client()
                .pods()
                .inNamespace(ns)
                .withName(old.name())
                .withGracePeriod(0)
                .delete();
        TestPod made = create(Shape.BUDGETED);
        awaitGone(old);
        handovers++;
        return made;
    }

    private TestPod create(Shape shape) {
        String name = String.format("p-%04d", ++created);
        Pod pod = switch (shape) {
            case BUDGETED -> SamplePods.budgeted(node.nodeName(), name, 1);
            case BURSTABLE -> SamplePods.burstable(node.nodeName(), name);
            case BURSTABLE_SIDECAR ->
                new PodBuilder(SamplePods.burstable(node.nodeName(), name))
                        .editSpec()
                        .addNewInitContainer()
                        .withName("sidecar")
                        .withImage("sidecar")
                        .withRestartPolicy("Always")
                        .withNewResources()
                        .addToRequests("memory", new Quantity("16Mi"))
                        .endResources()
                        .endInitContainer()
                        .endSpec()
                        .build();
        };
        pod.getMetadata().setNamespace(ns);
        Pod made = plane.client()
                .pods()
                .inNamespace(ns)
                .resource(WorkloadPods.ofImage(pod, RealNodeAgent.workloadImage()))
                .create();
        TestPod p = new TestPod(name, shape, made.getMetadata().getUid());
        pods.put(name, p);
        node.awaitRunning(ns, name);
        return p;
    }

    /** Deletes the pod (1 s grace) and waits until the kubelet confirmed its containers gone. */
    private void delete(TestPod p) throws Exception {
        deletedUids.add(p.uid());
        pods.remove(p.name());
        plane.client()
                .pods()
                .inNamespace(ns)
                .withName(p.name())
                .withGracePeriod(1)
                .delete();
        awaitGone(p);
    }

    private void awaitGone(TestPod p) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (plane.client().pods().inNamespace(ns).withName(p.name()).get() != null) {
            if (System.nanoTime() > until) {
                throw new AssertionError("pod " + p.name() + " still there 60 s after its deletion");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private List<TestPod> alive() {
        return pods.values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .toList();
    }

    // ---- the sampler ----

    /** {@code containerId → container name} of every pod on the node the informer knows (sandboxes are not named). */
    private Map<String, String> containerNames() {
        Map<String, String> out = new HashMap<>();
        for (Pod p : informer.getStore().list()) {
            if (p.getStatus() == null) {
                continue;
            }
            List<ContainerStatus> statuses = new ArrayList<>();
            if (p.getStatus().getContainerStatuses() != null) {
                statuses.addAll(p.getStatus().getContainerStatuses());
            }
            if (p.getStatus().getInitContainerStatuses() != null) {
                statuses.addAll(p.getStatus().getInitContainerStatuses());
            }
            for (ContainerStatus s : statuses) {
                if (s.getContainerID() != null && s.getContainerID().startsWith("containerd://")) {
                    out.put(s.getContainerID().substring("containerd://".length()), s.getName());
                }
            }
        }
        return out;
    }

    /** Every container cgroup under kubepods with its cpuset and its processes' affinities. */
    private List<ContainerSample> readContainers() {
        Map<String, String> names = containerNames();
        List<ContainerSample> out = new ArrayList<>();
        for (KubepodsCgroups.ContainerCgroup c : KubepodsCgroups.list()) {
            try {
                CpuList cpuset = c.cpuset();
                List<CpuList> affinities = new ArrayList<>();
                for (long pid : c.pids()) {
                    try {
                        affinities.add(KubeletLikeHost.allowedCpus(pid));
                    } catch (IOException exited) {
                        // the process ended between the listing and the read
                    }
                }
                String name = names.getOrDefault(
                        c.containerId(), "sandbox-" + c.containerId().substring(0, 12));
                out.add(new ContainerSample(c.podUid(), name, c.containerId(), cpuset, affinities));
            } catch (IOException gone) {
                // the container ended between the listing and the read
            }
        }
        return out;
    }

    private void sample() {
        SampleCheck check = new SampleCheck(WINDOW);
        Map<String, CpuList> exclusive = Map.of();
        Set<String> everHeld = new TreeSet<>();
        while (sampling) {
            try {
                Optional<NodeState> state = SoakExpectations.readCheckpoint(checkpoint, fingerprint);
                Map<Record, Set<String>> records = new EnumMap<>(Record.class);
                if (state.isPresent()) {
                    exclusive = SoakExpectations.exclusiveByContainer(state.get());
                    records.put(Record.CHECKPOINT, state.get().pods().keySet());
                }
                List<ContainerSample> cs = readContainers();
                Set<String> livePods = new TreeSet<>();
                pods.values().forEach(p -> livePods.add(p.uid()));
                state.ifPresent(s -> everHeld.addAll(s.pods().keySet()));
                everHeld.removeAll(deletedUids);
                everHeld.retainAll(livePods);
                FaultKind k = current.get();
                Snapshot s = new Snapshot(
                        Instant.now(),
                        cs,
                        exclusive,
                        Optional.ofNullable(writableSince.get()),
                        livePods,
                        records,
                        everHeld);
                List<Violation> found = new ArrayList<>(check.check(s, deletedUids));
                found.addAll(Invariants.heldByTwo(cs, EXCLUSIVE_CAPABLE));
                for (Violation v : found) {
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

    // ---- convergence and the records ----

    /** The placement facts of the checkpoint's pods (none when it cannot be read). */
    private Map<String, SortedMap<String, String>> placements() {
        return SoakExpectations.readCheckpoint(checkpoint, fingerprint)
                .map(SoakExpectations::placements)
                .orElse(Map.of());
    }

    private Set<String> liveUids() {
        Set<String> out = new TreeSet<>();
        alive().forEach(p -> out.add(p.uid()));
        return out;
    }

    /** The agent pod Ready, every workload container on its wanted set, NumaNodeState naming the checkpoint's pods. */
    private boolean awaitConverged() throws Exception {
        long until = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            try {
                if (converged()) {
                    return true;
                }
            } catch (RuntimeException whileRecovering) {
                // e.g. the API server still starting: not converged yet
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return false;
    }

    private boolean converged() throws Exception {
        if (!plane.apiServerRunning()
                || agent.pod().filter(RealNodeAgent::ready).isEmpty()) {
            return false;
        }
        Optional<NodeState> state = SoakExpectations.readCheckpoint(checkpoint, fingerprint);
        if (state.isEmpty()) {
            return false;
        }
        Map<String, CpuList> exclusive = SoakExpectations.exclusiveByContainer(state.get());
        TreeSet<Integer> taken = new TreeSet<>();
        exclusive.values().forEach(c -> taken.addAll(c.ids()));
        CpuList shared = ALL.minus(new CpuList(taken));
        Map<String, KubepodsCgroups.ContainerCgroup> cgroups = new HashMap<>();
        KubepodsCgroups.list().forEach(c -> cgroups.put(c.containerId(), c));
        Map<String, String> names = containerNames();
        for (TestPod p : alive()) {
            Pod pod = informer.getStore().getByKey(ns + "/" + p.name());
            if (pod == null || !"Running".equals(pod.getStatus().getPhase())) {
                return false;
            }
            long ids = names.entrySet().stream()
                    .filter(e -> cgroups.containsKey(e.getKey())
                            && cgroups.get(e.getKey()).podUid().equals(p.uid()))
                    .count();
            int want = pod.getSpec().getContainers().size()
                    + (pod.getSpec().getInitContainers() == null
                            ? 0
                            : pod.getSpec().getInitContainers().size());
            if (ids != want) {
                return false;
            }
            for (Map.Entry<String, String> e : names.entrySet()) {
                KubepodsCgroups.ContainerCgroup c = cgroups.get(e.getKey());
                if (c == null || !c.podUid().equals(p.uid())) {
                    continue;
                }
                CpuList wanted = exclusive.getOrDefault(p.uid() + "/" + e.getValue(), shared);
                if (!c.cpuset().equals(wanted)) {
                    return false;
                }
                for (long pid : c.pids()) {
                    if (!KubeletLikeHost.allowedCpus(pid).equals(wanted)) {
                        return false;
                    }
                }
            }
        }
        return AgentRecords.numaNodeStatePods(plane.client(), node.nodeName())
                .equals(new TreeSet<>(SoakExpectations.podNames(state.get()).values()));
    }

    /**
     * After convergence: every live pod the checkpoint holds is in NumaNodeState and PodResources, each of its
     * containers placed there as in the checkpoint, within the grace of {@link AgentRecords#lastingLosses} (the records
     * are written one after the other).
     */
    private void checkRecords(FaultKind k) throws InterruptedException {
        List<Violation> lost = AgentRecords.lastingLosses(
                () -> SoakExpectations.readCheckpoint(checkpoint, fingerprint)
                        .map(state -> SoakExpectations.recordsDisagree(
                                state, plane.client(), node.nodeName(), podResourcesSocket, liveUids()))
                        .orElse(List.of()),
                RECORDS_GRACE);
        for (Violation v : lost) {
            tally.violated(k, v);
            failures.add(k + " (after convergence): " + v);
        }
    }
}
