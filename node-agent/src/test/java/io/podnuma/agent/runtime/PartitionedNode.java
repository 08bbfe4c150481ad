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
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The in-memory agent on a node whose cgroups are {@link FakeCgroups} and whose partition files follow the kernel's
 * rules ({@link KernelPartitions}): 2 NUMA nodes of 64 CPUs, CPUs 0 and 64 reserved, single-numa-node, pod scope. Pods
 * are put running (their containers' cgroups on the host) before the agent starts.
 */
final class PartitionedNode implements AutoCloseable {

    static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");

    final CgroupNaming naming = new CgroupNaming(CgroupDriver.CGROUPFS);
    final FakePods pods = new FakePods();
    final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    final KernelPartitions kernel = new KernelPartitions();
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final AtomicReference<AgentReport> lastReport = new AtomicReference<>();
    final List<FoundContainer> onHost = Collections.synchronizedList(new ArrayList<>());
    final CpuTopology topo;
    final AgentMetrics metrics;
    private final Path stateDir;
    private final List<NodeAgent> agents = new ArrayList<>();

    PartitionedNode(Path stateDir) throws Exception {
        this.stateDir = stateDir;
        this.topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        this.metrics = new AgentMetrics(topo);
    }

    private static AgentConfig config() {
        CpuManager cpus = SampleConfigs.reservedCpus("0,64");
        return AgentConfigs.load(SampleConfigs.podScope("unit", cpus)
                .policy(SampleConfigs.podScopePolicy(cpus, AdmissionAction.WARN, false))
                .build());
    }

    /** The agent started on this node, its partitions on {@code files}; ready, its first decisions made. */
    NodeAgent agent(PartitionFiles files, Optional<PartitionType> type) throws InterruptedException {
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

    /** {@code pod} running: its status names its containers, whose cgroups are on the host with every CPU. */
    Pod running(Pod pod) {
        Pod p = RuntimeFixtures.withStatus(pod);
        pods.put(p);
        onHost.addAll(cgroups.create(p, naming, new Pin(topo.onlineCpus(), CpuSet.of(0, 1))));
        return p;
    }

    /** {@code pod} gone, with its cgroups. */
    void gone(Pod p) {
        pods.remove(p);
        cgroups.actual.remove(appDir(p));
        onHost.removeIf(f -> f.path().equals(appDir(p)));
        kernel.remove(appDir(p));
        kernel.remove(podDir(p));
    }

    /** A pod budget of {@code cpus} with one container. */
    static Pod budget(String name, String cpus) {
        return pod(name)
                .withResources(SamplePods.guaranteed(cpus, "1Gi"))
                .addNewContainer()
                .withName("app")
                .endContainer()
                .endSpec()
                .build();
    }

    /** A Guaranteed pod without a budget: its container asks for 2 whole CPUs. */
    static Pod perContainer(String name) {
        return pod(name)
                .addNewContainer()
                .withName("app")
                .withResources(SamplePods.guaranteed("2", "1Gi"))
                .endContainer()
                .endSpec()
                .build();
    }

    private static PodBuilder.SpecNested<PodBuilder> pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("unit")
                .withUid(UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .withCreationTimestamp("2026-12-07T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("unit");
    }

    CgroupPath podDir(Pod p) {
        return naming.podPath(RuntimeFixtures.qos(p), p.getMetadata().getUid());
    }

    CgroupPath appDir(Pod p) {
        var s = RuntimeFixtures.allStatuses(RuntimeFixtures.withStatus(p)).getFirst();
        return naming.containerPath(new ContainerCgroup(
                RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID())));
    }

    /** The NumaNodeState's {@code Partitioned} condition: {@code status reason: message}, or "absent". */
    String partitioned() {
        return lastReport.get().node().conditions().stream()
                .filter(c -> c.getType().equals("Partitioned"))
                .map(c -> c.getStatus() + " " + c.getReason() + ": " + c.getMessage())
                .findFirst()
                .orElse("absent");
    }

    @Override
    public void close() {
        agents.forEach(NodeAgent::close);
    }
}
