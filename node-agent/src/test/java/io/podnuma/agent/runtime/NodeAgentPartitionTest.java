package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.partition.KernelPartitions;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionStep;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpuManager.partition} on the in-memory agent over a model of the kernel's partition rules: a pod budget's pod
 * cgroup, or a container with exclusive CPUs, becomes a partition once its containers hold their CPUs; it follows a
 * resize in place, goes with its pod, is undone by a policy without partitions; a slice the kernel refuses, or a node
 * that cannot have partitions, keeps its CPUs exclusive by cpuset with a Warning and the {@code Partitioned}
 * condition.
 */
class NodeAgentPartitionTest {

    private static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");

    @TempDir
    Path stateDir;

    private final CgroupNaming naming = new CgroupNaming(CgroupDriver.CGROUPFS);
    private final FakePods pods = new FakePods();
    private final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    private final KernelPartitions kernel = new KernelPartitions();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<AgentReport> lastReport = new AtomicReference<>();
    private final List<FoundContainer> onHost = Collections.synchronizedList(new ArrayList<>());
    private final List<NodeAgent> agents = new ArrayList<>();
    private CpuTopology topo;
    private AgentMetrics metrics;

    @BeforeEach
    void topology() throws Exception {
        topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        metrics = new AgentMetrics(topo);
    }

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
    }

    private static AgentConfig config() {
        CpuManager cpus = SampleConfigs.reservedCpus("0,64");
        return AgentConfigs.load(SampleConfigs.podScope("unit", cpus)
                .policy(SampleConfigs.podScopePolicy(cpus, AdmissionAction.WARN, false))
                .build());
    }

    private NodeAgent agent(PartitionFiles files, Optional<PartitionType> type) throws InterruptedException {
        NodeAgent agent = new InMemoryAgent(
                        "unit", topo, config(), naming, cgroups, () -> List.copyOf(onHost), stateDir, pods)
                .withEvents(new RecordingEvents(events))
                .withReports(lastReport::set)
                .withMetrics(metrics)
                .withPartitions(files, type)
                .build();
        agents.add(agent);
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();
        agent.drain();
        return agent;
    }

    /** A running pod, its status naming its containers, its cgroups on the fake host with every CPU. */
    private Pod running(Pod pod) {
        Pod p = RuntimeFixtures.withStatus(pod);
        pods.put(p);
        for (var s : RuntimeFixtures.allStatuses(p)) {
            ContainerCgroup c = new ContainerCgroup(
                    RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
            CgroupPath path = naming.containerPath(c);
            cgroups.actual.put(path, new Pin(topo.onlineCpus(), CpuSet.of(0, 1)));
            onHost.add(new FoundContainer(c, path));
        }
        return p;
    }

    private static Pod budget(String name, String cpus) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("unit")
                .withUid(UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .withCreationTimestamp("2026-12-07T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("unit")
                .withResources(SamplePods.guaranteed(cpus, "1Gi"))
                .addNewContainer()
                .withName("app")
                .endContainer()
                .endSpec()
                .build();
    }

    private static Pod perContainer(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("unit")
                .withUid(UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .withCreationTimestamp("2026-12-07T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("unit")
                .addNewContainer()
                .withName("app")
                .withResources(SamplePods.guaranteed("2", "1Gi"))
                .endContainer()
                .endSpec()
                .build();
    }

    private CgroupPath podDir(Pod p) {
        return naming.podPath(RuntimeFixtures.qos(p), p.getMetadata().getUid());
    }

    private CgroupPath appDir(Pod p) {
        var s = RuntimeFixtures.allStatuses(p).getFirst();
        return naming.containerPath(new ContainerCgroup(
                RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID())));
    }

    private String partitioned() {
        return lastReport.get().node().conditions().stream()
                .filter(c -> c.getType().equals("Partitioned"))
                .map(c -> c.getStatus() + " " + c.getReason())
                .findFirst()
                .orElse("absent");
    }

    @Test
    void aBudgetsPodCgroupBecomesAnIsolatedPartitionOfTheWholeBudgetAndGoesWithItsPod() throws Exception {
        Pod p = running(budget("trader", "4"));
        NodeAgent agent = agent(kernel, Optional.of(PartitionType.ISOLATED));
        CpuSet bubble = agent.state().pods().get(p.getMetadata().getUid()).bubble();

        assertThat(bubble.size()).isEqualTo(4);
        assertThat(kernel.inForce()).isEqualTo(Map.of(podDir(p), bubble));
        assertThat(kernel.types()).isEqualTo(Map.of(podDir(p), PartitionType.ISOLATED));
        assertThat(kernel.exclusiveLists()).containsEntry(KUBEPODS, bubble);
        assertThat(cgroups.actual.get(appDir(p)).cpus().isSubsetOf(bubble)).isTrue();
        agent.reconcileNow();
        assertThat(partitioned()).isEqualTo("True PartitionsInForce");
        assertThat(metrics.scrape()).contains("podnuma_cpuset_partitions 1.0");

        int writes = kernel.written().size();
        agent.reconcileNow();
        assertThat(kernel.written()).as("nothing changed: nothing written").hasSize(writes);

        pods.remove(p);
        cgroups.actual.remove(appDir(p));
        onHost.removeIf(f -> f.path().equals(appDir(p)));
        kernel.remove(appDir(p));
        kernel.remove(podDir(p));
        agent.reconcileNow();
        assertThat(kernel.inForce()).isEmpty();
        assertThat(kernel.exclusiveLists())
                .as("kubepods lists nothing any more")
                .isEmpty();
        assertThat(metrics.scrape()).contains("podnuma_cpuset_partitions 0.0");
    }

    @Test
    void aGuaranteedContainersExclusiveCpusBecomeARootPartitionListedByItsPod() throws Exception {
        Pod p = running(perContainer("solo"));
        NodeAgent agent = agent(kernel, Optional.of(PartitionType.ROOT));
        CpuSet cpus = agent.state()
                .pods()
                .get(p.getMetadata().getUid())
                .container("app")
                .orElseThrow()
                .cpus();

        assertThat(cpus.size()).isEqualTo(2);
        assertThat(kernel.inForce()).isEqualTo(Map.of(appDir(p), cpus));
        assertThat(kernel.types()).isEqualTo(Map.of(appDir(p), PartitionType.ROOT));
        assertThat(kernel.exclusiveLists()).containsEntry(podDir(p), cpus).containsEntry(KUBEPODS, cpus);
    }

    @Test
    void aSliceTheKernelRefusesStaysExclusiveByCpusetWithAWarningAndIsNotTriedAgain() throws Exception {
        Pod p = running(budget("trader", "4"));
        kernel.refuse(podDir(p), "Cpu list in cpuset.cpus not exclusive");
        NodeAgent agent = agent(kernel, Optional.of(PartitionType.ISOLATED));
        CpuSet bubble = agent.state().pods().get(p.getMetadata().getUid()).bubble();

        assertThat(kernel.inForce()).isEmpty();
        assertThat(kernel.types()).as("undone: a member again").isEmpty();
        assertThat(kernel.exclusiveLists()).isEmpty();
        assertThat(cgroups.actual.get(appDir(p)).cpus().isSubsetOf(bubble))
                .as("the pod keeps its CPUs")
                .isTrue();
        assertThat(events)
                .contains("pod unit/trader Warning PartitionRefused: pod unit/trader: cgroup " + podDir(p)
                        + " could not be made an isolated partition of CPUs " + bubble
                        + " (the kernel reports it \"isolated invalid (Cpu list in cpuset.cpus not exclusive)\");"
                        + " its CPUs stay exclusive by their cpusets alone");
        agent.reconcileNow();
        assertThat(partitioned()).isEqualTo("False PartitionRefused");
        assertThat(metrics.scrape()).contains("podnuma_cpuset_partitions_refused_total 1.0");

        int writes = kernel.written().size();
        agent.reconcileNow();
        agent.reconcileNow();
        assertThat(kernel.written()).as("not tried again while its CPUs stay").hasSize(writes);
        assertThat(events.stream().filter(e -> e.contains("PartitionRefused")).count())
                .isEqualTo(1);
    }

    @Test
    void aNodeWithoutPartitionsSaysSoOnceAndPinsAsBefore() throws Exception {
        Pod p = running(budget("trader", "4"));
        NodeAgent agent = agent(
                PartitionFiles.none("the node runs cgroup v1; cpuset partitions are cgroup v2's"),
                Optional.of(PartitionType.ISOLATED));
        agent.reconcileNow();

        assertThat(agent.state().pods().get(p.getMetadata().getUid()).bubble().size())
                .isEqualTo(4);
        assertThat(events)
                .containsOnlyOnce("node Warning PartitionsUnsupported: cpuManager.partition isolated: the node runs"
                        + " cgroup v1; cpuset partitions are cgroup v2's; exclusive slices stay exclusive by their"
                        + " cpusets alone");
        assertThat(partitioned()).isEqualTo("False PartitionsUnsupported");
    }

    @Test
    void partitionsAnEarlierAgentLeftAreUndoneByAPolicyWithoutThem() throws Exception {
        Pod p = RuntimeFixtures.withStatus(budget("trader", "4"));
        kernel.leave(podDir(p), PartitionType.ISOLATED, CpuSet.parse("4-7"));
        agent(kernel, Optional.empty());

        assertThat(kernel.types()).isEmpty();
        assertThat(kernel.exclusiveLists()).isEmpty();
        assertThat(lastReport.get().node().conditions())
                .noneMatch(c -> c.getType().equals("Partitioned"));
        assertThat(kernel.written())
                .containsExactly(
                        new PartitionStep.Partition(podDir(p), PartitionType.MEMBER),
                        new PartitionStep.Exclusive(podDir(p), CpuSet.empty()),
                        new PartitionStep.Exclusive(KUBEPODS, CpuSet.empty()));
    }
}
