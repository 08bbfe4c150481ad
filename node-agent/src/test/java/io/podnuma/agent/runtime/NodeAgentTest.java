package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.Checkpoint;
import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.kubelet.FileCheck;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.report.ConditionBook;
import io.podnuma.agent.report.ConditionType;
import io.podnuma.agent.runtime.birth.BirthDecision;
import io.podnuma.agent.runtime.birth.BirthReason;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.RuntimeRecord;
import io.podnuma.agent.runtime.leave.Shutdown;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's decisions with in-memory pods and cgroups: start-up from a checkpoint (valid, corrupt, tampered
 * under a valid checksum, written under another policy), the kubelet conflict, eviction of refused pods, containers seen
 * before their pod, and the pin a container gets at its creation (the NRI path) agreeing with the cgroup path.
 */
class NodeAgentTest {

    @TempDir
    Path stateDir;

    private final CpuTopology topo = readTopology();
    private final CgroupNaming naming = new CgroupNaming(CgroupDriver.CGROUPFS);
    private final FakePods pods = new FakePods();
    private final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<AgentReport> lastReport = new AtomicReference<>();
    private final List<NodeAgent> agents = new ArrayList<>();
    private final List<FoundContainer> onHost = Collections.synchronizedList(new ArrayList<>());
    private Supplier<KubeletCheck> kubelet = () -> new KubeletCheck(List.of());

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
    }

    private static CpuTopology readTopology() {
        try {
            return new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static AgentConfig config(String reserved, AdmissionAction admission) {
        CpuManager cpus = SampleConfigs.reservedCpus(reserved);
        return AgentConfigs.load(SampleConfigs.podScope("unit", cpus)
                .policy(SampleConfigs.podScopePolicy(cpus, admission, false))
                .build());
    }

    private NodeAgent agent(AgentConfig config) throws InterruptedException {
        return started(inMemory(config));
    }

    private InMemoryAgent inMemory(AgentConfig config) {
        return new InMemoryAgent("unit", topo, config, naming, cgroups, () -> List.copyOf(onHost), stateDir, pods)
                .withEvents(new RecordingEvents(events))
                .withReports(lastReport::set)
                .withKubelet(kubelet);
    }

    private NodeAgent started(InMemoryAgent parts) throws InterruptedException {
        NodeAgent agent = parts.build();
        agents.add(agent);
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();
        // Ready says the pod list synced; the decisions on it may still be in the loop's queue (a loaded machine
        // showed the PodResources answer published after a test had taken it as the starting point).
        agent.drain();
        return agent;
    }

    /** A pod with a 4-CPU budget, its status naming its containers, and its cgroups on the fake host. */
    private Pod budgetedRunning(String name) {
        Pod p = RuntimeFixtures.withStatus(budgeted(name));
        pods.put(p);
        onHost.addAll(cgroups.create(p, naming, new Pin(topo.onlineCpus(), CpuSet.of(0, 1))));
        return p;
    }

    private static Pod budgeted(String name) {
        return new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("unit")
                .withUid(java.util.UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .withCreationTimestamp("2026-11-29T00:00:0" + name.length() + "Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("unit")
                .withResources(SamplePods.guaranteed("4", "1Gi"))
                .addNewContainer()
                .withName("app")
                .endContainer()
                .endSpec()
                .build();
    }

    /** Flips one bit in the middle of the checkpoint in {@code stateDir}: its checksum no longer matches. */
    static void damageCheckpoint(Path stateDir) throws java.io.IOException {
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x20;
        Files.write(file, bytes);
    }

    private Pin pinOf(Pod p) {
        var s = RuntimeFixtures.allStatuses(p).get(0);
        return cgroups.actual.get(naming.containerPath(new ContainerCgroup(
                RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()))));
    }

    @Test
    void aRestartAdoptsTheCheckpointAndReleasesPodsThatEndedMeanwhile() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        Pod b = budgetedRunning("bb");
        NodeAgent first = agent(config);
        CpuSet aCpus = pinOf(a).cpus();
        assertThat(aCpus.size()).isEqualTo(4);
        first.stop(Shutdown.KEEP_PINS);

        pods.pods.remove(b.getMetadata().getUid()); // b ended while no agent ran
        NodeAgent second = agent(config);

        assertThat(second.state().pods()).containsOnlyKeys(a.getMetadata().getUid());
        assertThat(pinOf(a).cpus()).as("a keeps its CPUs across the restart").isEqualTo(aCpus);
        assertThat(events).noneMatch(e -> e.contains("Checkpoint"));
    }

    @Test
    void aCorruptCheckpointIsSetAsideWithAnEventAndTheStateIsRebuiltFromThePods() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        agent(config).stop(Shutdown.KEEP_PINS);
        damageCheckpoint(stateDir);

        NodeAgent second = agent(config);

        assertThat(events)
                .anyMatch(e -> e.startsWith("node Warning CheckpointChecksumMismatch")
                        || e.startsWith("node Warning CheckpointMalformed"));
        assertThat(second.state().pods()).containsOnlyKeys(a.getMetadata().getUid());
        try (var s = Files.list(stateDir)) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("node-state.json.corrupt-"));
        }
        assertThat(lastReport.get().node().lastError()).map(AgentError::reason).isPresent();
    }

    @Test
    void aCheckpointTamperedUnderAValidChecksumIsSetAsideAndRunningPodsKeepTheirCpus() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        agent(config).stop(Shutdown.KEEP_PINS);
        CpuSet aCpus = pinOf(a).cpus();
        // A buggy writer (or a hand edit that recomputed the checksum): the app container, which runs on its
        // pod's shared pool, is recorded on one CPU of it.
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        Checkpoint written = CheckpointCodec.decode(Files.readAllBytes(file), TopologyFingerprint.of(topo));
        PodAssignment pod = written.state().pods().get(a.getMetadata().getUid());
        ContainerAssignment app = pod.containers().get(0);
        ContainerAssignment shrunk = new ContainerAssignment(
                app.name(), app.type(), app.kind(), CpuSet.of(app.cpus().first()), app.memory(), app.memoryNodes());
        PodAssignment tampered = new PodAssignment(
                pod.ref(),
                pod.qos(),
                pod.placement(),
                pod.numaAffinity(),
                pod.bubble(),
                pod.podSharedPool(),
                pod.podMemory(),
                List.of(shrunk));
        new CheckpointStore(stateDir)
                .write(new Checkpoint(
                        written.state().withPod(written.state().sharedPool(), tampered),
                        written.topology(),
                        written.configHash()));

        NodeAgent second = agent(config);

        assertThat(events)
                .anyMatch(e -> e.startsWith("node Warning CheckpointInconsistentState")
                        && e.contains("container app: cpus is \"" + app.cpus().first() + "\""));
        assertThat(second.state().pods()).containsOnlyKeys(a.getMetadata().getUid());
        assertThat(pinOf(a).cpus()).as("rebuilt from what the container holds").isEqualTo(aCpus);
    }

    @Test
    void withoutItsCheckpointTheAgentKeepsRunningPodsOnTheCpusTheirContainersHold() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        Pod b = budgetedRunning("bb");
        agent(config).stop(Shutdown.KEEP_PINS);
        CpuSet aCpus = pinOf(a).cpus();
        CpuSet bCpus = pinOf(b).cpus();
        // a ends while no agent runs, and a new pod arrives; the checkpoint is damaged.
        pods.listener = null;
        pods.pods.remove(a.getMetadata().getUid());
        removeCgroups(a);
        Pod c = budgetedRunning("ccc");
        damageCheckpoint(stateDir);

        NodeAgent second = agent(config);

        assertThat(events)
                .anyMatch(e -> e.contains("rebuilding from the running pods and the CPUs their containers hold"));
        assertThat(second.state().pods())
                .containsOnlyKeys(b.getMetadata().getUid(), c.getMetadata().getUid());
        // Admitted afresh in creation order, bb (now the oldest) would have been given a's CPUs: same spec.
        assertThat(aCpus).isNotEqualTo(bCpus);
        assertThat(second.state().pods().get(b.getMetadata().getUid()).exclusiveCpus())
                .as("bb keeps the CPUs its container holds")
                .isEqualTo(bCpus);
        assertThat(pinOf(b).cpus()).isEqualTo(bCpus);
        assertThat(pinOf(c).cpus())
                .hasToString(second.state()
                        .pods()
                        .get(c.getMetadata().getUid())
                        .exclusiveCpus()
                        .toString());
        assertThat(pinOf(c).cpus().intersects(bCpus)).isFalse();
    }

    @Test
    void withoutItsCheckpointTheAgentWritesNothingBeforeThePodListArrives() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        agent(config).stop(Shutdown.KEEP_PINS);
        CpuSet aCpus = pinOf(a).cpus();
        Files.delete(stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME));
        cgroups.touched.clear();

        NodeAgent away = new InMemoryAgent(
                        "unit", topo, config, naming, cgroups, () -> List.copyOf(onHost), stateDir, new AwayPods())
                .withEvents(new RecordingEvents(events))
                .withSyncLog(Duration.ofMillis(100))
                .build();
        agents.add(away);
        away.start();
        for (FoundContainer f : List.copyOf(onHost)) {
            away.containerAppeared(f.container(), f.path(), System.nanoTime());
        }
        away.reconcileNow();

        assertThat(cgroups.touched).as("no cgroup written").isEmpty();
        assertThat(pinOf(a).cpus())
                .as("a's exclusive CPUs are not widened to the shared pool")
                .isEqualTo(aCpus);
        assertThat(away.isReady()).isFalse();
    }

    @Test
    void aCheckpointBehindTheLastAgentsDecisionsLeavesThePodsItDoesNotKnowOnTheCpusTheyHold() throws Exception {
        AgentConfig config = config("0,64", AdmissionAction.WARN);
        Pod a = budgetedRunning("a");
        NodeAgent first = agent(config);
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        byte[] older = Files.readAllBytes(file);
        // bb is admitted and pinned after that checkpoint; its own checkpoint write is lost (a full state directory,
        // then a crash), so the next agent reads the older file.
        Pod b = budgetedRunning("bb");
        first.drain();
        first.reconcileNow();
        CpuSet aCpus = pinOf(a).cpus();
        CpuSet bCpus = pinOf(b).cpus();
        assertThat(first.state().pods().get(b.getMetadata().getUid()).exclusiveCpus())
                .isEqualTo(bCpus);
        first.stop(Shutdown.KEEP_PINS);
        Files.write(file, older);
        // x arrives while no agent runs, created before bb: admitted afresh in creation order it would come first.
        pods.listener = null;
        Pod x = budgetedRunning("x");

        // Before the pod list: the checkpoint's shared pool contains bb's CPUs, but nothing gains any.
        NodeAgent away = new InMemoryAgent(
                        "unit", topo, config, naming, cgroups, () -> List.copyOf(onHost), stateDir, new AwayPods())
                .withEvents(new RecordingEvents(events))
                .build();
        agents.add(away);
        away.start();
        for (FoundContainer f : List.copyOf(onHost)) {
            away.containerAppeared(f.container(), f.path(), System.nanoTime());
        }
        away.reconcileNow();
        assertThat(away.state().pods()).containsOnlyKeys(a.getMetadata().getUid());
        assertThat(pinOf(b).cpus())
                .as("bb, unknown to the checkpoint, is not widened")
                .isEqualTo(bCpus);
        assertThat(pinOf(a).cpus()).isEqualTo(aCpus);
        assertThat(pinOf(x).cpus())
                .as("x only gives up: the checkpoint's shared pool")
                .isEqualTo(away.state().sharedPool());
        away.close();

        NodeAgent next = agent(config);

        assertThat(next.state().pods().get(b.getMetadata().getUid()).exclusiveCpus())
                .as("bb keeps the CPUs its containers hold")
                .isEqualTo(bCpus);
        assertThat(pinOf(b).cpus()).isEqualTo(bCpus);
        assertThat(pinOf(a).cpus()).isEqualTo(aCpus);
        CpuSet xCpus = next.state().pods().get(x.getMetadata().getUid()).exclusiveCpus();
        assertThat(xCpus.intersects(bCpus) || xCpus.intersects(aCpus)).isFalse();
        assertThat(pinOf(x).cpus()).isEqualTo(xCpus);
    }

    /** An agent whose own ticks (30 s) come long after the test's: every tick a test sees is one it asked for. */
    private NodeAgent startedWithSlowTicks() throws InterruptedException {
        return started(inMemory(config("0,64", AdmissionAction.WARN)).withReconcilePeriod(Duration.ofSeconds(30)));
    }

    /** What someone else's write leaves a pod's first container with: the first of its CPUs. */
    private Pin narrowedToItsFirstCpu(Pod p) {
        Pin now = pinOf(p);
        return new Pin(CpuSet.of(now.cpus().first()), now.mems());
    }

    @Test
    void watchedTheTickReadsBackWhatWasWrittenAndEverythingOnceAMinute() throws Exception {
        Pod a = budgetedRunning("a");
        // A 30 s period: every second tick reads everything. The test's own ticks come long before the agent's.
        NodeAgent agent = startedWithSlowTicks();
        CpuSet aCpus = pinOf(a).cpus();
        CgroupPath path = onHost.getFirst().path();
        agent.watchCpusets();
        agent.reconcileNow(); // the first tick after the watch starts reads everything
        Pin drifted = narrowedToItsFirstCpu(a);

        cgroups.actual.put(path, drifted); // a write the watcher did not report (the kernel's own, say)
        agent.reconcileNow();
        assertThat(pinOf(a)).as("not read back: nothing reported a write").isEqualTo(drifted);

        agent.cpusetWritten(path);
        agent.reconcileNow();
        assertThat(pinOf(a).cpus())
                .as("read back and repaired after the report")
                .isEqualTo(aCpus);

        // Unreported, it is found by the full tick: a minute of 30 s ticks.
        cgroups.actual.put(path, drifted);
        int ticks = 0;
        while (pinOf(a).equals(drifted) && ticks < 10) {
            agent.reconcileNow();
            ticks++;
        }
        assertThat(pinOf(a).cpus()).isEqualTo(aCpus);
        assertThat(ticks).isBetween(1, 2);
    }

    @Test
    void aWriteBeforeTheWatchsFirstListingIsRepairedAsDrift() throws Exception {
        Pod a = budgetedRunning("a");
        NodeAgent agent = startedWithSlowTicks();
        CpuSet aCpus = pinOf(a).cpus();
        CgroupPath path = onHost.getFirst().path();
        Pin drifted = narrowedToItsFirstCpu(a);

        // After the full sync read the host and before the watch's first listing reaches the loop (as after a restart
        // whose pod list came first): the listing names a container the agent holds.
        cgroups.actual.put(path, drifted);
        agent.onHost(List.copyOf(onHost), System.nanoTime());
        agent.drain();
        assertThat(pinOf(a)).as("not read again by the listing").isEqualTo(drifted);
        assertThat(events).noneMatch(e -> e.contains("CpusetDriftRepaired"));

        agent.watchCpusets();
        agent.reconcileNow();
        assertThat(pinOf(a).cpus())
                .as("the first tick of the watch reads everything")
                .isEqualTo(aCpus);
        assertThat(events).anyMatch(e -> e.contains("Warning CpusetDriftRepaired"));
    }

    @Test
    void aStatusUpdateNoRecordHoldsTouchesNoCgroupAndKeepsTheAnswerAndTheTickStillRepairs() throws Exception {
        Pod a = budgetedRunning("a");
        NodeAgent agent = startedWithSlowTicks();
        CpuSet aCpus = pinOf(a).cpus();
        CgroupPath path = onHost.getFirst().path();
        var answer = agent.snapshot();
        Pin drifted = narrowedToItsFirstCpu(a);
        cgroups.actual.put(path, drifted);

        // What the kubelet keeps rewriting on a running pod: a condition, nothing the agent reads.
        pods.put(new io.fabric8.kubernetes.api.model.PodBuilder(a)
                .editStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime("2026-12-02T16:00:00Z")
                .endCondition()
                .endStatus()
                .build());
        agent.drain();
        assertThat(pinOf(a)).as("no pass over the pod's containers").isEqualTo(drifted);
        assertThat(agent.snapshot()).as("the PodResources answer not rebuilt").isSameAs(answer);

        agent.reconcileNow();
        assertThat(pinOf(a).cpus()).as("the drift is the tick's").isEqualTo(aCpus);
    }

    private void removeCgroups(Pod p) {
        for (var s : RuntimeFixtures.allStatuses(p)) {
            CgroupPath path = naming.containerPath(new ContainerCgroup(
                    RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID())));
            cgroups.actual.remove(path);
            onHost.removeIf(f -> f.path().equals(path));
        }
    }

    @Test
    void aPolicyThatReservesAHeldCpuMarksTheNodeDegradedAndNamesThePod() throws Exception {
        Pod a = budgetedRunning("a");
        agent(config("0,64", AdmissionAction.WARN)).stop(Shutdown.KEEP_PINS);
        CpuSet held = pinOf(a).cpus();

        NodeAgent second = agent(config(held.lowest(1).union(CpuSet.of(0, 64)).toString(), AdmissionAction.WARN));

        assertThat(second.state().pods()).containsKey(a.getMetadata().getUid());
        assertThat(pinOf(a).cpus()).as("the running pod keeps its CPUs").isEqualTo(held);
        assertThat(events).anyMatch(e -> e.startsWith("node Normal PolicyChanged"));
        assertThat(events).anyMatch(e -> e.startsWith("node Warning PolicyConflict") && e.contains("unit/a"));
        assertThat(lastReport.get().node().conditions())
                .anyMatch(c -> c.getType().equals(ConditionType.DEGRADED.wire())
                        && c.getStatus().equals(ConditionBook.TRUE)
                        && c.getMessage().contains("unit/a"));
    }

    @Test
    void underAKubeletConflictNothingIsWrittenAndTheConditionSaysWhy() throws Exception {
        kubelet = () -> new KubeletCheck(List.of(new FileCheck(
                Path.of("/var/lib/kubelet/cpu_manager_state"),
                io.podnuma.agent.kubelet.FileVerdict.CONFLICT,
                "the kubelet's CPU manager runs the static policy")));
        Pod a = budgetedRunning("a");
        AgentMetrics metrics = new AgentMetrics(topo);
        NodeAgent agent = started(inMemory(config("0,64", AdmissionAction.WARN)).withMetrics(metrics));

        assertThat(agent.state().pods()).containsKey(a.getMetadata().getUid());
        double passes = PrometheusText.sampleValue(metrics.scrape(), "podnuma_reconcile_passes_total");
        Pod b = RuntimeFixtures.withStatus(budgeted("bb"));
        pods.put(b);
        var s = RuntimeFixtures.allStatuses(b).get(0);
        ContainerCgroup c = new ContainerCgroup(
                RuntimeFixtures.qos(b), b.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
        cgroups.actual.put(naming.containerPath(c), new Pin(topo.onlineCpus(), CpuSet.of(0, 1)));
        agent.containerAppeared(c, naming.containerPath(c), System.nanoTime()); // a new container, too
        agent.reconcileNow();

        // What a deployed agent's test waits for before it says nothing was written (RealNodeStaticKubeletE2E).
        assertThat(PrometheusText.sampleValue(metrics.scrape(), "podnuma_reconcile_passes_total"))
                .as("reconcile passes, counted once each is over")
                .isGreaterThan(passes);
        assertThat(pinOf(a).cpus()).as("untouched").isEqualTo(topo.onlineCpus());
        assertThat(cgroups.touched).isEmpty();
        assertThat(events).anyMatch(e -> e.startsWith("node Warning KubeletConflict"));
    }

    @Test
    void withAdmissionEvictARefusedPodIsEvictedOnce() throws Exception {
        AgentConfig config = config("0-127", AdmissionAction.EVICT); // nothing can be exclusive
        NodeAgent agent = agent(config);
        Pod a = RuntimeFixtures.withStatus(budgeted("a"));
        pods.put(a);
        pods.put(a); // an update of the same pod
        agent.drain();

        assertThat(events).filteredOn(e -> e.startsWith("evict unit/a")).hasSize(1);
        assertThat(events).anyMatch(e -> e.startsWith("pod unit/a Warning") && e.contains("evicting it"));
    }

    @Test
    void aContainerSeenBeforeItsPodStatusGetsThePodsCpusThenItsOwn() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Pod spec = budgeted("a");
        pods.put(spec); // bound, no status yet
        agent.drain();
        Pod running = RuntimeFixtures.withStatus(spec);
        var s = RuntimeFixtures.allStatuses(running).get(0);
        ContainerCgroup c = new ContainerCgroup(
                RuntimeFixtures.qos(running), spec.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
        CgroupPath path = naming.containerPath(c);
        cgroups.actual.put(path, new Pin(topo.onlineCpus(), CpuSet.of(0, 1)));
        agent.containerAppeared(c, path, System.nanoTime());
        agent.drain();

        CpuSet bubble = agent.state().pods().get(spec.getMetadata().getUid()).bubble();
        assertThat(cgroups.actual.get(path).cpus()).as("the pod's CPUs at once").isEqualTo(bubble);
        pods.put(running);
        agent.drain();
        assertThat(cgroups.actual.get(path).cpus()).isEqualTo(bubble);
    }

    @Test
    void cpusAContainerFailedToGiveUpAreGivenToNobodyUntilItHas() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Web web = webOnTheSharedPool(agent);
        CgroupPath webPath = web.path();
        CpuSet sharedBefore = agent.state().sharedPool();
        assertThat(cgroups.actual.get(webPath).cpus()).isEqualTo(sharedBefore);

        cgroups.failing.add(webPath); // web cannot be written: it keeps the whole shared pool
        Pod a = RuntimeFixtures.withStatus(budgeted("a"));
        pods.put(a);
        CgroupPath aPath = appear(agent, a);
        agent.drain();
        CpuSet bubble = agent.state().pods().get(a.getMetadata().getUid()).bubble();
        assertThat(cgroups.actual.get(webPath).cpus()).as("web's write failed").isEqualTo(sharedBefore);
        assertThat(cgroups.touched)
                .as("a's container is not given the bubble while web still holds it (it keeps what it inherited)")
                .doesNotContainKey(aPath);

        cgroups.failing.clear();
        agent.reconcileNow();
        assertThat(cgroups.actual.get(webPath).cpus()).isEqualTo(agent.state().sharedPool());
        assertThat(cgroups.actual.get(aPath).cpus()).isEqualTo(bubble);
    }

    @Test
    void aContainerIsBornWithThePinTheCgroupPathWouldWriteSoItsCgroupNeedsNoWrite() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Pod spec = budgeted("a");
        pods.put(spec); // bound: the decision is made now, before any container exists
        agent.drain();
        String uid = spec.getMetadata().getUid();
        CpuSet bubble = agent.state().pods().get(uid).bubble();
        BirthDecision birth = agent.atCreation(uid, "app");
        assertThat(birth).isInstanceOf(BirthDecision.Pinned.class);
        Pin born = ((BirthDecision.Pinned) birth).pin();
        assertThat(born.cpus().isEmpty()).as("inside the pod's bubble").isFalse();
        assertThat(born.cpus().isSubsetOf(bubble)).isTrue();

        // The runtime creates the cgroup with that pin; the cgroup path finds it right and writes nothing.
        Pod running = RuntimeFixtures.withStatus(spec);
        pods.put(running);
        var s = RuntimeFixtures.allStatuses(running).get(0);
        ContainerCgroup c =
                new ContainerCgroup(RuntimeFixtures.qos(running), uid, ContainerId.parse(s.getContainerID()));
        CgroupPath path = naming.containerPath(c);
        cgroups.actual.put(path, born);
        agent.containerAppeared(c, path, System.nanoTime());
        agent.reconcileNow();
        assertThat(cgroups.touched).as("born pinned: nothing left to write").doesNotContainKey(path);
        assertThat(cgroups.actual.get(path)).isEqualTo(born);
    }

    @Test
    void aContainerOfAPodTheAgentHasNotSeenIsBornOnTheSharedPoolAndBeforeStartNothingIsDecided() throws Exception {
        NodeAgent notStarted = inMemory(config("0,64", AdmissionAction.WARN)).build();
        agents.add(notStarted);
        assertThat(notStarted.atCreation("u", "app")).isEqualTo(new BirthDecision.Unpinned(BirthReason.NOT_STARTED));
        notStarted.close();

        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        budgetedRunning("held");
        agent.reconcileNow();
        assertThat(agent.atCreation("0c0ffee0-0000-4000-8000-000000000000", "app"))
                .isEqualTo(new BirthDecision.Pinned(
                        new Pin(agent.state().sharedPool(), RuntimeFixtures.allMems(topo)), false));
    }

    @Test
    void noContainerIsBornOntoCpusAnotherContainerFailedToGiveUp() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Web web = webOnTheSharedPool(agent);
        CgroupPath webPath = web.path();
        cgroups.failing.add(webPath); // web keeps the whole shared pool
        Pod a = budgeted("a");
        pods.put(a);
        agent.drain();
        CpuSet bubble = agent.state().pods().get(a.getMetadata().getUid()).bubble();
        BirthDecision birth = agent.atCreation(a.getMetadata().getUid(), "app");
        if (birth instanceof BirthDecision.Pinned p) {
            assertThat(p.pin().cpus().intersects(bubble))
                    .as("none of the CPUs web still holds")
                    .isFalse();
        } else {
            assertThat(birth).isEqualTo(new BirthDecision.Unpinned(BirthReason.CPUS_HELD));
        }
        cgroups.failing.clear();
        agent.reconcileNow();
        BirthDecision after = agent.atCreation(a.getMetadata().getUid(), "app");
        assertThat(after).isInstanceOf(BirthDecision.Pinned.class);
        assertThat(((BirthDecision.Pinned) after).pin().cpus().isSubsetOf(bubble))
                .isTrue();
    }

    @Test
    void underAKubeletConflictNoContainerIsBornPinned() throws Exception {
        kubelet = () -> new KubeletCheck(List.of(new FileCheck(
                Path.of("/var/lib/kubelet/cpu_manager_state"),
                io.podnuma.agent.kubelet.FileVerdict.CONFLICT,
                "the kubelet's CPU manager runs the static policy")));
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Pod a = budgeted("a");
        pods.put(a);
        agent.drain();
        assertThat(agent.atCreation(a.getMetadata().getUid(), "app"))
                .isEqualTo(new BirthDecision.Unpinned(BirthReason.NOT_WRITING));
    }

    @Test
    void theRuntimeIsToldEveryCpusetWrittenWithTheContainersId() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        List<Map<ContainerId, Pin>> told = Collections.synchronizedList(new ArrayList<>());
        agent.recordIn(new RuntimeRecord() {
            @Override
            public void written(Map<ContainerId, Pin> pins) {
                told.add(pins);
            }

            @Override
            public Map<ContainerId, CpuSet> pending() {
                return Map.of();
            }
        });
        Web web = webOnTheSharedPool(agent);
        CgroupPath webPath = web.path();
        ContainerId webId = web.id();
        Pod a = RuntimeFixtures.withStatus(budgeted("a"));
        pods.put(a); // the bubble leaves the shared pool: web is written again
        agent.drain();

        assertThat(told).isNotEmpty();
        Map<ContainerId, Pin> last = new java.util.LinkedHashMap<>();
        told.forEach(last::putAll);
        assertThat(last).containsEntry(webId, cgroups.actual.get(webPath));
        assertThat(last.get(webId).cpus()).isEqualTo(agent.state().sharedPool());
    }

    @Test
    void cpusAnUnansweredRuntimeUpdateMayStillPutIntoAContainerAreGivenToNobodyUntilTheRuntimeAnswers()
            throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Web web = webOnTheSharedPool(agent);
        CgroupPath webPath = web.path();
        CpuSet wholePool = agent.state().sharedPool();
        ContainerId webId = web.id();
        // The runtime has been told web's whole pool and has not answered yet.
        Map<ContainerId, CpuSet> pending = new java.util.concurrent.ConcurrentHashMap<>(Map.of(webId, wholePool));
        agent.recordIn(pendingOnly(pending));
        Pod a = RuntimeFixtures.withStatus(budgeted("a"));
        pods.put(a);
        CgroupPath aPath = appear(agent, a);
        agent.drain();
        CpuSet bubble = agent.state().pods().get(a.getMetadata().getUid()).bubble();
        assertThat(cgroups.actual.get(webPath).cpus())
                .as("web gave up the bubble")
                .isEqualTo(agent.state().sharedPool());
        assertThat(cgroups.touched)
                .as("a is not given the bubble: the runtime may still write it into web")
                .doesNotContainKey(aPath);
        assertThat(agent.atCreation(a.getMetadata().getUid(), "app"))
                .as("nor is a container born on it")
                .isEqualTo(new BirthDecision.Unpinned(BirthReason.CPUS_HELD));

        // The runtime applies its stale update (web gets the whole pool back in its cgroup), then answers.
        cgroups.actual.put(
                webPath, new Pin(wholePool, cgroups.actual.get(webPath).mems()));
        pending.clear();
        agent.runtimeApplied(List.of(webId));
        agent.drain();
        assertThat(cgroups.actual.get(webPath).cpus())
                .as("read again and narrowed")
                .isEqualTo(agent.state().sharedPool());
        assertThat(cgroups.actual.get(aPath).cpus()).isEqualTo(bubble);
    }

    @Test
    void theRuntimesWriteOfAnUpdateOnItsWayIsNotDriftAndIsPlannedAgainOnceApplied() throws Exception {
        NodeAgent agent = agent(config("0,64", AdmissionAction.WARN));
        Web web = webOnTheSharedPool(agent);
        CgroupPath webPath = web.path();
        CpuSet pool = agent.state().sharedPool();
        ContainerId webId = web.id();
        // The runtime answered an update of its own with an older pin (one CPU less) and writes it now.
        CpuSet older = pool.difference(CpuSet.of(pool.last()));
        Map<ContainerId, CpuSet> pending = new java.util.concurrent.ConcurrentHashMap<>(Map.of(webId, older));
        agent.recordIn(pendingOnly(pending));
        cgroups.actual.put(webPath, new Pin(older, cgroups.actual.get(webPath).mems()));

        agent.watchCpusets();
        agent.reconcileNow(); // the first tick of the watch reads every container
        assertThat(events).noneMatch(e -> e.contains("CpusetDriftRepaired"));

        pending.clear();
        agent.runtimeApplied(List.of(webId));
        agent.drain();
        assertThat(cgroups.actual.get(webPath).cpus())
                .as("planned again once applied")
                .isEqualTo(pool);
        assertThat(events).noneMatch(e -> e.contains("CpusetDriftRepaired"));
    }

    /** A Burstable pod's container on the node shared pool: its cgroup and its ID. */
    private record Web(CgroupPath path, ContainerId id) {}

    private Web webOnTheSharedPool(NodeAgent agent) {
        Pod web = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(2, "web", "web", "1"));
        pods.put(web);
        CgroupPath path = appear(agent, web);
        agent.drain();
        return new Web(
                path, ContainerId.parse(RuntimeFixtures.allStatuses(web).get(0).getContainerID()));
    }

    /** A runtime record that is told nothing and has {@code pending} on its way (the test changes the map). */
    private static RuntimeRecord pendingOnly(Map<ContainerId, CpuSet> pending) {
        return new RuntimeRecord() {
            @Override
            public void written(Map<ContainerId, Pin> pins) {}

            @Override
            public Map<ContainerId, CpuSet> pending() {
                return Map.copyOf(pending);
            }
        };
    }

    private CgroupPath appear(NodeAgent agent, Pod p) {
        var s = RuntimeFixtures.allStatuses(p).get(0);
        ContainerCgroup c = new ContainerCgroup(
                RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
        CgroupPath path = naming.containerPath(c);
        cgroups.actual.put(path, new Pin(topo.onlineCpus(), CpuSet.of(0, 1)));
        onHost.add(new FoundContainer(c, path));
        agent.containerAppeared(c, path, System.nanoTime());
        return path;
    }
}
