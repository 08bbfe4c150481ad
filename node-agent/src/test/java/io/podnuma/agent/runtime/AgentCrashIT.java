package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.grpc.ManagedChannel;
import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.runtime.CrashTestSetup.Kind;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.agent.testing.CpuLists;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code node-agent run} as a process, killed with SIGKILL at random moments of a churn of 120 pods on a kwok node
 * (right after a pod create, a pod delete, a container start, or after a pause) and started again each time, while
 * pods and containers keep coming and going, also while it is down. This machine has CPUs 0-1 with CPU 0 reserved,
 * so CPU 1 is the one exclusive CPU: at most one Guaranteed pod holds it, the others are refused and run on the
 * shared pool.
 *
 * <p>At every kill (the process is dead, nothing moves): the checkpoint is readable, no pod's containers run on CPU
 * 1 alone unless the checkpoint gives it to that pod or the pod is already deleted (effects never precede the
 * checkpoint), and at most one pod's containers do. After every restart: the pod the checkpoint held keeps CPU 1
 * unless it was deleted. At the end (agent running and ready): the checkpoint, {@code NumaNodeState} and
 * PodResources all hold exactly the pods that should hold CPU 1, every process and cgroup has its wanted set, no
 * CPU is exclusive to two containers, no container cgroup is left over.
 *
 * <p>Seeded: the seed is printed, {@code -Dpodnuma.seed} replays the same choices (timing still varies).
 */
@ExtendWith(ControlPlaneExtension.class)
class AgentCrashIT {

    static final int PODS = 120;
    static final int MIN_ALIVE = 4;
    static final int MAX_ALIVE = 14;
    static final CpuSet EXCLUSIVE = CpuSet.of(1);
    static final CpuSet RESERVED = CpuSet.of(0);
    static final CpuSet ALL = CpuSet.of(0, 1);

    /** When a kill comes. */
    enum Moment {
        AFTER_CREATE,
        AFTER_DELETE,
        AFTER_CONTAINER_START,
        AFTER_PAUSE
    }

    /** What one churn step did. */
    enum Did {
        CREATE,
        DELETE,
        CONTAINER_START,
        CONTAINER_STOP,
        NOTHING
    }

    record Kill(int atCreated, Moment moment) {}

    /** One pod of the churn as the test knows it. */
    static final class TestPod {
        final String name;
        final Kind kind;
        final String uid;
        final String created;
        final Map<String, PodContainer> cgroups = new TreeMap<>();
        final Map<String, Long> pids = new TreeMap<>();
        boolean deleted;
        boolean containersStopped;
        /** For a pod deleted before its containers stop: the step at which they stop. */
        int stopAtStep = -1;

        TestPod(String name, Kind kind, String uid, String created) {
            this.name = name;
            this.kind = kind;
            this.uid = uid;
            this.created = created;
        }

        boolean running() {
            return !cgroups.isEmpty() && !containersStopped;
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

    private final Map<String, TestPod> pods = new LinkedHashMap<>();
    private final Set<String> deletedUids = new HashSet<>();
    private int created;
    private int deletes;
    private int containerStarts;
    private int steps;
    private final List<String> kills = new ArrayList<>();
    private final List<Long> readyMillis = new ArrayList<>();

    @BeforeAll
    static void crds(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaNodeStates());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (informer != null) {
            informer.close();
        }
        if (agent != null) {
            agent.close();
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void survivesKill9AtRandomMomentsOfAChurnOf120Pods(ControlPlane cp) throws Exception {
        this.cp = cp;
        host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS);
        Assumptions.assumeTrue(
                host.cpus().equals(CpuLists.of(ALL)), "written for a host with CPUs 0-1, this one has " + host.cpus());
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println("AgentCrashIT seed " + seed + " (-Dpodnuma.seed=" + seed + " replays the choices)");
        rnd = new Random(seed);
        fingerprint = TopologyFingerprint.of(SysfsTopologyReader.host().read());
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        long setupStart = System.nanoTime();
        node = cp.ensureNode(
                "crash-" + suffix,
                Map.of("podnuma.io/policy", CrashTestSetup.POLICY),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        ns = "crash-" + suffix;
        cp.kubectl("create", "namespace", ns).assertSuccess();
        informer = cp.client().pods().inNamespace(ns).inform();

        agent = AgentProcess.withConfig(dir, CrashTestSetup.agentConfig(node, host.root()), cp.kubeconfig());
        long t0 = System.nanoTime();
        agent.start();
        agent.awaitReady(Duration.ofSeconds(90));
        System.out.printf(
                "node and namespace ready in %d ms; first start of the agent: ready after %d ms%n",
                (t0 - setupStart) / 1_000_000, millisSince(t0));

        long churnStart = System.nanoTime();
        Deque<Kill> plan = killPlan();
        while (created < PODS - 1) {
            Did did = step();
            Kill next = plan.peek();
            if (next != null && created >= next.atCreated() && matches(next.moment(), did)) {
                plan.poll();
                crashAndRestart(next.moment(), true);
            } else if (rnd.nextInt(4) == 0) {
                TimeUnit.MILLISECONDS.sleep(rnd.nextInt(30));
            }
        }
        // The last pod is Guaranteed, and the agent dies right after it is created.
        create(rnd.nextBoolean() ? Kind.POD_BUDGET : Kind.CPU_CONTAINER);
        NodeState atLastKill = crashAndRestart(Moment.AFTER_CREATE, false);
        long churnMillis = millisSince(churnStart);

        long settleStart = System.nanoTime();
        settle();
        System.out.printf("settled in %d ms%n", millisSince(settleStart));
        Optional<TestPod> holder = expectedHolder(atLastKill);
        long convergeStart = System.nanoTime();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertConverged(holder));
        long convergeMillis = millisSince(convergeStart);
        assertNoInternalErrors();

        System.out.printf(
                "AgentCrashIT: %d pods churned (%d deleted, %d container starts) in %d ms; %d kills: %s;"
                        + " time to ready after each restart (ms): %s; converged %d ms after the last restart's"
                        + " settle; CPU 1 held at the end by %s%n",
                created,
                deletes,
                containerStarts,
                churnMillis,
                kills.size(),
                kills,
                readyMillis,
                convergeMillis,
                holder.map(p -> p.name + " (" + p.kind + ")").orElse("nobody"));
        assertThat(created).isGreaterThanOrEqualTo(PODS);
        assertThat(kills).hasSizeGreaterThanOrEqualTo(5);
    }

    // ---- the churn ----

    /** Six kills spread over the churn at random moments (two of them right after a create), then one at the end. */
    private Deque<Kill> killPlan() {
        List<Moment> moments = new ArrayList<>(List.of(
                Moment.AFTER_CREATE,
                Moment.AFTER_CREATE,
                Moment.AFTER_DELETE,
                Moment.AFTER_DELETE,
                Moment.AFTER_CONTAINER_START,
                Moment.AFTER_PAUSE));
        Collections.shuffle(moments, rnd);
        Deque<Kill> plan = new ArrayDeque<>();
        for (int i = 0; i < moments.size(); i++) {
            plan.add(new Kill((i + 1) * PODS / (moments.size() + 1) + rnd.nextInt(11) - 5, moments.get(i)));
        }
        return plan;
    }

    private static boolean matches(Moment m, Did did) {
        return switch (m) {
            case AFTER_CREATE -> did == Did.CREATE;
            case AFTER_DELETE -> did == Did.DELETE;
            case AFTER_CONTAINER_START -> did == Did.CONTAINER_START;
            case AFTER_PAUSE -> true;
        };
    }

    /**
     * One thing happens: the containers of a pod kwok reports Running start, or the containers of a deleted pod
     * stop, or a pod is created or deleted.
     */
    private Did step() throws Exception {
        steps++;
        for (TestPod p : pods.values()) {
            if (!p.deleted && p.cgroups.isEmpty()) {
                Optional<Map<String, PodContainer>> cs =
                        CrashTestSetup.containers(informer.getStore().getByKey(ns + "/" + p.name));
                if (cs.isPresent()) {
                    startContainers(p, cs.get());
                    return Did.CONTAINER_START;
                }
            }
        }
        for (TestPod p : pods.values()) {
            if (p.deleted && p.running() && p.stopAtStep >= 0 && p.stopAtStep <= steps) {
                stopContainers(p);
                return Did.CONTAINER_STOP;
            }
        }
        List<TestPod> alive = alive();
        boolean mayCreate = created < PODS - 1;
        if (mayCreate && (alive.size() < MIN_ALIVE || (alive.size() < MAX_ALIVE && rnd.nextInt(100) < 55))) {
            Kind[] kinds = Kind.values();
            // Half Burstable, half Guaranteed (both kinds).
            create(rnd.nextBoolean() ? Kind.BURSTABLE : kinds[1 + rnd.nextInt(kinds.length - 1)]);
            return Did.CREATE;
        }
        if (!alive.isEmpty()) {
            delete(alive.get(rnd.nextInt(alive.size())));
            return Did.DELETE;
        }
        return Did.NOTHING;
    }

    private void create(Kind kind) {
        String name = String.format("p-%03d", ++created);
        Pod made = cp.client()
                .pods()
                .inNamespace(ns)
                .resource(CrashTestSetup.pod(kind, node, name))
                .create();
        TestPod p = new TestPod(
                name, kind, made.getMetadata().getUid(), made.getMetadata().getCreationTimestamp());
        pods.put(name, p);
    }

    /** As the kubelet may: containers stop before the pod goes, right after, or some steps later. */
    private void delete(TestPod p) throws Exception {
        int order = rnd.nextInt(3);
        if (order == 0 && p.running()) {
            stopContainers(p);
        }
        cp.client().pods().inNamespace(ns).withName(p.name).withGracePeriod(0).delete();
        p.deleted = true;
        deletedUids.add(p.uid);
        deletes++;
        if (order == 1 && p.running()) {
            stopContainers(p);
        } else if (p.running()) {
            p.stopAtStep = steps + 1 + rnd.nextInt(5);
        }
    }

    private void startContainers(TestPod p, Map<String, PodContainer> cs) throws Exception {
        p.cgroups.putAll(cs);
        for (Map.Entry<String, PodContainer> e : cs.entrySet()) {
            p.pids.put(e.getKey(), host.startContainer(e.getValue()));
            containerStarts++;
        }
    }

    private void stopContainers(TestPod p) throws Exception {
        for (PodContainer c : p.cgroups.values()) {
            host.stopContainer(c);
        }
        p.containersStopped = true;
        p.pids.clear();
    }

    private List<TestPod> alive() {
        return pods.values().stream().filter(p -> !p.deleted).toList();
    }

    // ---- kill and restart ----

    /**
     * Kills the agent, checks what it left behind, lets the churn go on for a few steps while it is down (if {@code
     * churnMeanwhile}), starts it again and waits until it is ready.
     *
     * @return the checkpoint as the killed agent left it
     */
    private NodeState crashAndRestart(Moment moment, boolean churnMeanwhile) throws Exception {
        if (moment == Moment.AFTER_PAUSE) {
            TimeUnit.MILLISECONDS.sleep(50 + rnd.nextInt(450));
        }
        agent.kill9();
        NodeState left = checkpoint();
        kills.add(moment + " at pod " + created + " ("
                + exclusiveHolders(left).keySet().stream()
                        .map(this::nameOf)
                        .findFirst()
                        .orElse("nobody")
                + " holds CPU 1, "
                + pods.values().stream().filter(TestPod::running).count() + " pods running)");
        assertCheckpointBeforeEffects(left);

        int whileDown = churnMeanwhile ? rnd.nextInt(4) : 0;
        for (int i = 0; i < whileDown; i++) {
            step();
        }
        long t0 = System.nanoTime();
        agent.start();
        int whileStarting = churnMeanwhile ? rnd.nextInt(3) : 0;
        for (int i = 0; i < whileStarting; i++) {
            step();
        }
        agent.awaitReady(Duration.ofSeconds(90));
        readyMillis.add(millisSince(t0));

        // No allocation is lost: the pod that held CPU 1 still does, unless it was deleted meanwhile.
        for (Map.Entry<String, CpuSet> held : exclusiveHolders(left).entrySet()) {
            if (!deletedUids.contains(held.getKey())) {
                assertThat(exclusiveHolders(checkpoint()))
                        .as("after the restart following the kill %s, the checkpoint", kills.getLast())
                        .containsEntry(held.getKey(), held.getValue());
            }
        }
        return left;
    }

    /**
     * With the agent dead nothing moves: a container runs on CPU 1 alone only if the checkpoint gives CPU 1 to its pod
     * or its pod is deleted already (released, the narrowing write not done yet), and only one pod's containers do.
     */
    private void assertCheckpointBeforeEffects(NodeState left) throws Exception {
        Map<String, CpuSet> holders = exclusiveHolders(left);
        assertThat(holders.size())
                .as("pods holding exclusive CPUs in %s", holders)
                .isLessThanOrEqualTo(1);
        Set<String> alone = new TreeSet<>();
        for (TestPod p : pods.values()) {
            if (!p.running()) {
                continue;
            }
            for (PodContainer c : p.cgroups.values()) {
                Optional<CpuList> cpus = cpusetIfPresent(c);
                if (cpus.isPresent() && cpus.get().equals(CpuLists.of(EXCLUSIVE))) {
                    alone.add(p.uid);
                }
            }
        }
        assertThat(alone)
                .as("pods whose containers run on CPU 1 alone at the kill %s", kills.getLast())
                .hasSizeLessThanOrEqualTo(1);
        for (String uid : alone) {
            assertThat(holders.containsKey(uid) || deletedUids.contains(uid))
                    .as(
                            "pod %s runs on CPU 1 alone at the kill %s, but the checkpoint gives CPU 1 to %s",
                            nameOf(uid),
                            kills.getLast(),
                            holders.keySet().stream().map(this::nameOf).toList())
                    .isTrue();
        }
    }

    // ---- the end ----

    /** Every pod kwok runs gets its containers, deleted pods' containers stop and deleted pods are gone. */
    private void settle() throws Exception {
        for (TestPod p : pods.values()) {
            if (p.deleted && p.running()) {
                stopContainers(p);
            }
        }
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    for (TestPod p : alive()) {
                        if (p.cgroups.isEmpty()) {
                            CrashTestSetup.containers(informer.getStore().getByKey(ns + "/" + p.name))
                                    .ifPresent(cs -> {
                                        try {
                                            startContainers(p, cs);
                                        } catch (Exception e) {
                                            throw new IllegalStateException(e);
                                        }
                                    });
                        }
                    }
                    Set<String> listed = cp.client().pods().inNamespace(ns).list().getItems().stream()
                            .map(x -> x.getMetadata().getName())
                            .collect(Collectors.toSet());
                    return alive().stream().allMatch(TestPod::running)
                            && listed.equals(alive().stream().map(p -> p.name).collect(Collectors.toSet()));
                });
    }

    /**
     * Who must hold CPU 1 after the last restart: the pod the checkpoint held if it still exists; otherwise the full
     * sync admits the remaining pods in creation order, so the oldest Guaranteed pod.
     */
    private Optional<TestPod> expectedHolder(NodeState atLastKill) {
        for (String uid : exclusiveHolders(atLastKill).keySet()) {
            if (!deletedUids.contains(uid)) {
                return alive().stream().filter(p -> p.uid.equals(uid)).findFirst();
            }
        }
        return alive().stream()
                .filter(p -> p.kind.guaranteed())
                .min(Comparator.<TestPod, String>comparing(p -> p.created).thenComparing(p -> p.uid));
    }

    private void assertConverged(Optional<TestPod> holder) throws Exception {
        Optional<String> holderUid = holder.map(p -> p.uid);
        CpuSet shared = holder.isPresent() ? RESERVED : ALL;

        // The checkpoint: every Burstable pod (on the shared pool) and the holder, nothing else.
        NodeState state = checkpoint();
        assertThat(exclusiveHolders(state))
                .as("exclusive CPUs in the checkpoint")
                .isEqualTo(holderUid.map(u -> Map.of(u, EXCLUSIVE)).orElse(Map.of()));
        Set<String> held = new TreeSet<>();
        alive().stream().filter(p -> !p.kind.guaranteed()).forEach(p -> held.add(p.uid));
        holderUid.ifPresent(held::add);
        assertThat(state.pods().keySet()).as("pods in the checkpoint").isEqualTo(held);
        assertThat(state.sharedPool()).isEqualTo(shared);

        // Every process and its cgroup on its wanted set; CPU 1 belongs to one pod.
        Map<Integer, Set<String>> podsByCpu = new TreeMap<>();
        for (TestPod p : alive()) {
            CpuList want = CpuLists.of(holderUid.map(p.uid::equals).orElse(false) ? EXCLUSIVE : shared);
            for (Map.Entry<String, PodContainer> c : p.cgroups.entrySet()) {
                String what = p.name + "/" + c.getKey() + " (" + p.kind + ")";
                CpuList allowed = KubeletLikeHost.allowedCpus(p.pids.get(c.getKey()));
                assertThat(allowed).as("Cpus_allowed_list of %s", what).isEqualTo(want);
                assertThat(host.cpusetOf(c.getValue()))
                        .as("cpuset.cpus of %s", what)
                        .isEqualTo(want);
                allowed.ids()
                        .forEach(cpu -> podsByCpu
                                .computeIfAbsent(cpu, k -> new TreeSet<>())
                                .add(p.name));
            }
        }
        if (holder.isPresent()) {
            assertThat(podsByCpu.getOrDefault(1, Set.of()))
                    .as("pods running on the exclusive CPU 1")
                    .containsExactly(holder.get().name);
        }

        // No container cgroup is left over, and none is missing.
        Set<String> onHost =
                host.containerDirs().stream().map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
        Set<String> wanted = new TreeSet<>();
        for (TestPod p : alive()) {
            p.cgroups.values().forEach(c -> wanted.add(host.path(c).toString()));
        }
        assertThat(onHost).as("container cgroups on the host").isEqualTo(wanted);

        // PodResources: every pod listed, CPU 1 only for the holder.
        Map<String, Boolean> onCpu1 = new TreeMap<>();
        ManagedChannel channel = DomainSocketChannels.open(agent.socket());
        try {
            for (PodResources r : PodResourcesListerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS)
                    .list(ListPodResourcesRequest.getDefaultInstance())
                    .getPodResourcesList()) {
                boolean cpu1 = r.getCpuIdsList().contains(1L)
                        || r.getContainersList().stream()
                                .anyMatch(c -> c.getCpuIdsList().contains(1L));
                onCpu1.put(r.getName(), cpu1);
            }
        } finally {
            channel.shutdownNow();
        }
        assertThat(onCpu1.keySet())
                .as("pods PodResources lists")
                .isEqualTo(alive().stream().map(p -> p.name).collect(Collectors.toSet()));
        assertThat(onCpu1.entrySet().stream()
                        .filter(Map.Entry::getValue)
                        .map(Map.Entry::getKey)
                        .toList())
                .as("pods PodResources gives CPU 1")
                .isEqualTo(holder.map(p -> List.of(p.name)).orElse(List.of()));

        // NumaNodeState: the same holder, the same shared pool.
        NumaNodeState nns =
                cp.client().resources(NumaNodeState.class).withName(node).get();
        assertThat(nns).as("NumaNodeState of %s", node).isNotNull();
        assertThat(nns.getStatus().sharedPool()).isEqualTo(shared.toString());
        assertThat(nns.getStatus().allocations().stream()
                        .filter(AgentCrashIT::exclusive)
                        .map(PodAllocation::name)
                        .toList())
                .as("NumaNodeState allocations with exclusive CPUs")
                .isEqualTo(holder.map(p -> List.of(p.name)).orElse(List.of()));
    }

    private static boolean exclusive(PodAllocation a) {
        return (a.cpus() != null && !a.cpus().isEmpty())
                || a.containers().stream().anyMatch(c -> c.assignment() == AssignmentType.EXCLUSIVE);
    }

    /** The agent never hit an unexpected exception in its loop, in any of its runs. */
    private void assertNoInternalErrors() throws Exception {
        for (int i = 1; Files.exists(agent.log(i)); i++) {
            assertThat(Files.readString(agent.log(i)))
                    .as("log of agent run %d", i)
                    .doesNotContain("handling ")
                    .doesNotContain("Exception in thread");
        }
    }

    // ---- reading the host ----

    private NodeState checkpoint() throws Exception {
        return CheckpointCodec.decode(Files.readAllBytes(agent.checkpoint()), fingerprint)
                .state();
    }

    /** Pod UID → the CPUs it keeps from everyone else (bubble or exclusive container CPUs), for pods with any. */
    private static Map<String, CpuSet> exclusiveHolders(NodeState state) {
        Map<String, CpuSet> out = new TreeMap<>();
        for (PodAssignment p : state.pods().values()) {
            if (!p.exclusiveCpus().isEmpty()) {
                out.put(p.ref().uid(), p.exclusiveCpus());
            }
        }
        return out;
    }

    private Optional<CpuList> cpusetIfPresent(PodContainer c) throws Exception {
        try {
            return Optional.of(host.cpusetOf(c));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private String nameOf(String uid) {
        return pods.values().stream()
                .filter(p -> p.uid.equals(uid))
                .map(p -> p.name)
                .findFirst()
                .orElse(uid);
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
