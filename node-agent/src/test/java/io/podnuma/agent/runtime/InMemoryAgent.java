package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointFiles;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.agent.runtime.core.RuntimeEvents;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.testkit.agent.SampleConfigs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link NodeAgent} on in-memory pods and cgroups for unit tests: the parts a test varies are set with the
 * {@code with...} methods, the rest are quiet defaults (no kubelet conflict, Events recorded nowhere).
 */
final class InMemoryAgent {

    private final String node;
    private final CpuTopology topo;
    private final AgentConfig config;
    private final CgroupNaming naming;
    private final PinWriter pins;
    private final Supplier<List<FoundContainer>> scan;
    private final Path stateDir;
    private final PodSource pods;
    private RuntimeEvents events = new RecordingEvents(new ArrayList<>());
    private Consumer<AgentReport> reports = r -> {};
    private Supplier<KubeletCheck> kubelet = () -> new KubeletCheck(List.of());
    private Duration syncLog = Duration.ofSeconds(1);
    /** Long enough that no tick of its own runs in a test: the tests reconcile when they say so. */
    private Duration reconcilePeriod = Duration.ofHours(1);

    private AgentMetrics metrics;
    private CheckpointFiles checkpointFiles = CheckpointFiles.HOST;
    private DeviceSource devices = DeviceSource.NONE;
    private PartitionFiles partitions = PartitionFiles.none("cgroup v1 in memory");
    private Optional<PartitionType> partitionType = Optional.empty();

    InMemoryAgent(
            String node,
            CpuTopology topo,
            AgentConfig config,
            CgroupNaming naming,
            PinWriter pins,
            Supplier<List<FoundContainer>> scan,
            Path stateDir,
            PodSource pods) {
        this.node = node;
        this.topo = topo;
        this.config = config;
        this.naming = naming;
        this.pins = pins;
        this.scan = scan;
        this.stateDir = stateDir;
        this.pods = pods;
    }

    /**
     * The 2-socket fixture ({@link RuntimeFixtures#SYSFS}) in pod scope under single-numa-node, CPUs 0 and 64
     * reserved, systemd cgroup names, fake cgroups, no container on the host: the node the device tests place on.
     */
    static InMemoryAgent twoSocketPodScope(CpuTopology topo, Path stateDir, PodSource pods) {
        return new InMemoryAgent(
                "unit",
                topo,
                podScopeConfig("unit", SampleConfigs.reservedCpus("0,64")),
                new CgroupNaming(CgroupDriver.SYSTEMD),
                new FakeCgroups(new Random(1)),
                List::of,
                stateDir,
                pods);
    }

    InMemoryAgent withEvents(RuntimeEvents value) {
        events = value;
        return this;
    }

    InMemoryAgent withReports(Consumer<AgentReport> value) {
        reports = value;
        return this;
    }

    InMemoryAgent withKubelet(Supplier<KubeletCheck> value) {
        kubelet = value;
        return this;
    }

    /** Metrics the test reads; a fresh registry per agent otherwise. */
    InMemoryAgent withMetrics(AgentMetrics value) {
        metrics = value;
        return this;
    }

    /** The state directory's changes through {@code value} (a crash test's fence, a full directory). */
    InMemoryAgent withCheckpointFiles(CheckpointFiles value) {
        checkpointFiles = value;
        return this;
    }

    /** The kubelet's devices: which a pod holds, and the node's. */
    InMemoryAgent withDevices(DeviceSource value) {
        devices = value;
        return this;
    }

    /** cgroup v2 partitions on {@code files}, each exclusive slice made one of {@code type}. */
    InMemoryAgent withPartitions(PartitionFiles files, Optional<PartitionType> type) {
        this.partitions = files;
        this.partitionType = type;
        return this;
    }

    InMemoryAgent withReconcilePeriod(Duration value) {
        reconcilePeriod = value;
        return this;
    }

    InMemoryAgent withSyncLog(Duration value) {
        syncLog = value;
        return this;
    }

    /**
     * The configuration most runtime tests use: single-numa-node at pod scope, static CPUs, pod-level resources.
     *
     * @param cpuManager the static CPU policy with its reservation, e.g. {@code SampleConfigs.reservedCpuCount(2)}
     */
    static AgentConfig podScopeConfig(String node, CpuManager cpuManager) {
        return AgentConfigs.load(SampleConfigs.podScope(node, cpuManager).build());
    }

    /** The agent, started and ready. */
    NodeAgent started() throws InterruptedException {
        NodeAgent agent = build();
        agent.start();
        if (!agent.awaitReady(Duration.ofSeconds(10))) {
            agent.close();
            throw new AssertionError("the in-memory agent was not ready within 10 s");
        }
        return agent;
    }

    /** The agent, not started; {@code admission: Evict} in the policy turns eviction on. */
    NodeAgent build() {
        return new NodeAgent(
                new NodeAgent.Settings(
                        node,
                        Optional.empty(),
                        config.policyHash(),
                        config.policy().admission() == AdmissionAction.EVICT
                                ? AdmissionAction.EVICT
                                : AdmissionAction.WARN,
                        ExclusiveCpuQuota.KEEP,
                        reconcilePeriod,
                        syncLog,
                        partitionType),
                new NodeAgent.Parts(
                        topo,
                        NodeAllocator.create(topo, config.nodeConfig()),
                        new PodMapper(config.budgetAnnotation().orElse(null)),
                        naming,
                        pins,
                        partitions,
                        scan,
                        new CheckpointStore(stateDir, checkpointFiles),
                        pods,
                        events,
                        reports,
                        metrics != null ? metrics : new AgentMetrics(topo),
                        kubelet,
                        devices,
                        () -> {},
                        Clock.systemUTC()));
    }
}
