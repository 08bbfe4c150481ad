package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.pods.InformerPodSource;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.report.NodeStatePublisher;
import io.podnuma.agent.report.NodeStateRenderer;
import io.podnuma.agent.report.NodeStateWriter;
import io.podnuma.agent.runtime.leave.Shutdown;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime against the real API server (pods bound to a kwok node) and this machine's real cgroup v1 cpuset
 * hierarchy (a private subtree with real processes): what the processes may run on, the checkpoint, the
 * NumaNodeState, drift repair, refusals, restart and restore.
 */
@ExtendWith(ControlPlaneExtension.class)
class NodeAgentIT {

    @TempDir
    Path stateDir;

    private KubeletLikeHost host;
    private String node;
    private String namespace;
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final List<NodeAgent> agents = new ArrayList<>();
    private NodeStatePublisher publisher;
    private AgentMetrics metrics;

    @BeforeAll
    static void crds(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaNodeStates());
    }

    @BeforeEach
    void setUp(ControlPlane cp) throws Exception {
        host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS);
        org.junit.jupiter.api.Assumptions.assumeTrue(
                host.cpus().equals(CpuList.of(0, 1)), "written for a host with CPUs 0-1, this one has " + host.cpus());
        node = cp.ensureNode(
                "agent-it-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of(),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        namespace = "agent-it-" + UUID.randomUUID().toString().substring(0, 8);
        cp.kubectl("create", "namespace", namespace).assertSuccess();
        publisher = new NodeStatePublisher(new NodeStateWriter(cp.client(), node), Duration.ofMillis(100));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (NodeAgent a : agents) {
            a.close();
        }
        if (publisher != null) {
            publisher.close();
        }
        if (host != null) {
            host.close();
        }
    }

    private AgentConfig config() {
        return AgentConfigs.load(
                SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0")).build());
    }

    private NodeAgent start(ControlPlane cp) throws Exception {
        AgentConfig config = config();
        CpuTopology topo = SysfsTopologyReader.host().read();
        metrics = new AgentMetrics(topo);
        NodeAgent agent = new NodeAgent(
                new NodeAgent.Settings(
                        node,
                        Optional.of("it-policy"),
                        config.policyHash(),
                        AdmissionAction.WARN,
                        ExclusiveCpuQuota.KEEP,
                        Duration.ofHours(1),
                        Duration.ofSeconds(30),
                        Optional.empty()),
                new NodeAgent.Parts(
                        topo,
                        NodeAllocator.create(topo, config.nodeConfig()),
                        new PodMapper(config.budgetAnnotation().orElse(null)),
                        AgentOnHost.layout(host).naming(),
                        new CgroupPinWriter(
                                AgentOnHost.layout(host),
                                new io.podnuma.agent.cgroup.HostCgroupFiles(AgentOnHost.layout(host))),
                        PartitionFiles.none("not asked for"),
                        () -> AgentOnHost.scan(host),
                        new CheckpointStore(stateDir),
                        new InformerPodSource(cp.client(), node),
                        new RecordingEvents(events),
                        (AgentReport r) -> publisher.publish(NodeStateRenderer.render(r.node())),
                        metrics,
                        () -> new KubeletCheck(List.of()),
                        io.podnuma.agent.podresources.DeviceSource.NONE,
                        () -> {},
                        Clock.systemUTC()));
        agents.add(agent);
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(60))).as("ready").isTrue();
        return agent;
    }

    private Pod create(ControlPlane cp, Pod pod) throws InterruptedException {
        return RunningPods.createRunning(cp, namespace, pod);
    }

    private Pod burstable(String name) {
        return SamplePods.burstable(node, name);
    }

    private Pod budgeted(String name) {
        return SamplePods.budgeted(node, name);
    }

    /** Starts the containers the pod status names, the way containerd would, and tells the agent. */
    private Map<String, Long> run(NodeAgent agent, Pod pod) throws Exception {
        Map<String, Long> pids = new java.util.TreeMap<>();
        for (var e : RunningPods.containers(pod).entrySet()) {
            pids.put(e.getKey(), host.startContainer(e.getValue()));
            FoundContainer found = AgentOnHost.found(host, e.getValue());
            agent.containerAppeared(found.container(), found.path(), System.nanoTime());
        }
        agent.drain();
        return pids;
    }

    private static PodContainer cgroupOf(Pod pod, String container) {
        return RunningPods.container(pod, container);
    }

    @Test
    void pinsRealProcessesRepairsDriftAndSurvivesARestartAndADamagedCheckpoint(ControlPlane cp) throws Exception {
        NodeAgent agent = start(cp);
        Pod web = create(cp, burstable("web"));
        long webPid = run(agent, web).get("web");
        assertThat(KubeletLikeHost.allowedCpus(webPid))
                .as("burstable on the shared pool")
                .isEqualTo(CpuList.of(0, 1));

        Pod trader = create(cp, budgeted("trader"));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        agent.state().pods().containsKey(trader.getMetadata().getUid()));
        Map<String, Long> pids = run(agent, trader);

        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(pids.get("proxy"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(webPid))
                .as("the shared pool gave CPU 1 up")
                .isEqualTo(CpuList.of(0));
        assertThat(Files.readString(stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME)))
                .contains(trader.getMetadata().getUid());
        assertThat(agent.snapshot().state().pods())
                .containsKey(trader.getMetadata().getUid());
        assertThat(agent.snapshot().pods()).extracting(p -> p.ref().name()).containsExactly("trader", "web");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            NumaNodeState nns =
                    cp.client().resources(NumaNodeState.class).withName(node).get();
            assertThat(nns).isNotNull();
            assertThat(nns.getStatus().sharedPool()).isEqualTo("0");
            assertThat(nns.getStatus().allocations()).extracting(a -> a.name()).contains("trader");
        });
        assertThat(metrics.scrape())
                .contains("podnuma_cpu_manager_exclusive_cpu_allocation_count 1.0")
                .contains("podnuma_topology_manager_admission_requests_total 2.0");

        // Someone else widens the engine's cpuset: the next reconcile puts it back and says so.
        PodContainer engine = cgroupOf(trader, "engine");
        Files.writeString(host.dir(engine).resolve("cpuset.cpus"), "0-1");
        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(0, 1));
        agent.reconcileNow();
        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(1));
        assertThat(metrics.scrape())
                .contains("podnuma_drift_detected_total 1.0")
                .contains("podnuma_drift_repaired_total 1.0");
        assertThat(events).anyMatch(e -> e.startsWith("pod " + namespace + "/trader Warning CpusetDriftRepaired"));

        // A restart (rolling update) keeps the pins and adopts the checkpoint.
        agent.stop(Shutdown.KEEP_PINS);
        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(1));
        NodeAgent second = start(cp);
        assertThat(second.state().pods()).containsKey(trader.getMetadata().getUid());
        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(webPid)).isEqualTo(CpuList.of(0));

        // A damaged checkpoint is set aside; the cpusets on the host are the record, so trader keeps CPU 1.
        second.stop(Shutdown.KEEP_PINS);
        NodeAgentTest.damageCheckpoint(stateDir);
        NodeAgent third = start(cp);
        assertThat(events)
                .anyMatch(e -> e.startsWith("node Warning CheckpointChecksumMismatch")
                        || e.startsWith("node Warning CheckpointMalformed"));
        assertThat(third.state().pods()).containsKey(trader.getMetadata().getUid());
        assertThat(third.state().pods().get(trader.getMetadata().getUid()).bubble())
                .isEqualTo(CpuSet.of(1));
        assertThat(KubeletLikeHost.allowedCpus(pids.get("engine"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(pids.get("proxy"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(webPid)).isEqualTo(CpuList.of(0));

        // The bubble's pod leaves: the shared pool grows back.
        cp.client()
                .pods()
                .inNamespace(namespace)
                .withName("trader")
                .withGracePeriod(0)
                .delete();
        host.stopContainer(engine);
        host.stopContainer(cgroupOf(trader, "proxy"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () -> assertThat(KubeletLikeHost.allowedCpus(webPid)).isEqualTo(CpuList.of(0, 1)));
        assertThat(third.state().pods()).doesNotContainKey(trader.getMetadata().getUid());
    }

    @Test
    void aPodThatDoesNotFitIsReportedAndRunsOnTheSharedPoolThenTheNodeLeavesAndEverythingIsRestored(ControlPlane cp)
            throws Exception {
        NodeAgent agent = start(cp);
        Pod first = create(cp, budgeted("first"));
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        agent.state().pods().containsKey(first.getMetadata().getUid()));
        Map<String, Long> firstPids = run(agent, first);
        Pod second = create(cp, budgeted("second"));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(events)
                        .anyMatch(e -> e.startsWith("pod " + namespace + "/second Warning TopologyAffinityError")
                                || e.startsWith("pod " + namespace + "/second Warning UnexpectedAdmissionError")));
        Map<String, Long> secondPids = run(agent, second);

        assertThat(KubeletLikeHost.allowedCpus(firstPids.get("engine"))).isEqualTo(CpuList.of(1));
        assertThat(KubeletLikeHost.allowedCpus(secondPids.get("engine")))
                .as("refused: on the shared pool")
                .isEqualTo(CpuList.of(0));
        assertThat(agent.state().pods()).doesNotContainKey(second.getMetadata().getUid());
        assertThat(metrics.scrape()).contains("podnuma_topology_manager_admission_errors_total 1.0");

        agent.stop(Shutdown.RESTORE);
        for (long pid : List.of(firstPids.get("engine"), firstPids.get("proxy"), secondPids.get("engine"))) {
            assertThat(KubeletLikeHost.allowedCpus(pid)).isEqualTo(CpuList.of(0, 1));
        }
        assertThat(stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME)).doesNotExist();
    }

    /** Records Events as one line each: {@code pod ns/name Type Reason: message} or {@code node Type Reason: ...}. */
}
