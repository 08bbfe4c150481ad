package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.cgroup.CgroupDetector;
import io.podnuma.agent.cgroup.CgroupFiles;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.FaultInjectingCgroupFiles;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.cgroup.partition.CgroupPartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.cgroup.watch.CgroupTreeScanner;
import io.podnuma.agent.cgroup.watch.CgroupTreeWatcher;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.StateDirectoryLock;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.PinningMode;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.events.KubeEventRecorder;
import io.podnuma.agent.events.NodeRef;
import io.podnuma.agent.events.PodEvictor;
import io.podnuma.agent.events.PodResizeConditions;
import io.podnuma.agent.health.Readiness;
import io.podnuma.agent.http.HttpEndpoint;
import io.podnuma.agent.kubelet.KubeletCheckCache;
import io.podnuma.agent.membership.KubeNode;
import io.podnuma.agent.membership.NodeReports;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.nri.NriPlugin;
import io.podnuma.agent.nri.NriPluginSettings;
import io.podnuma.agent.podresources.CachedDeviceSource;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.podresources.KubeletDeviceSource;
import io.podnuma.agent.podresources.PodResourcesEndpoint;
import io.podnuma.agent.podresources.PodResourcesService;
import io.podnuma.agent.pods.InformerPodSource;
import io.podnuma.agent.pods.PodMapper;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.report.CoalescingPublisher;
import io.podnuma.agent.report.NodeStatePublisher;
import io.podnuma.agent.report.NodeStateRenderer;
import io.podnuma.agent.report.NodeStateWriter;
import io.podnuma.agent.report.nrt.NodeResourceTopology;
import io.podnuma.agent.report.nrt.NodeResourceTopologyRenderer;
import io.podnuma.agent.report.nrt.NodeResourceTopologyWriter;
import io.podnuma.agent.report.nrt.NrtReport;
import io.podnuma.agent.runtime.leave.Departure;
import io.podnuma.agent.runtime.leave.Shutdown;
import io.podnuma.agent.runtime.nri.NriPinning;
import io.podnuma.agent.runtime.status.AgentReport;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuPartition;
import io.podnuma.securemetrics.KubeAccessReviews;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureServing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent process: builds every part from the configuration, starts them in the order the design asks for
 * (topology, checkpoint, pod list, full sync, ready) and stops them in reverse.
 */
public final class AgentDaemon implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentDaemon.class);
    private static final Duration NRI_RECONNECT_MIN = Duration.ofMillis(200);
    private static final Duration NRI_RECONNECT_MAX = Duration.ofSeconds(5);
    private static final Duration NRI_GRACE = Duration.ofSeconds(10);
    private static final Duration NRI_WARN_EVERY = Duration.ofSeconds(60);
    /**
     * How old the kubelet's devices in a PodResources answer may be: a client polling List costs the kubelet one
     * call per second, and an answer shows a device the kubelet gave at most a second late.
     */
    private static final Duration DEVICES_MAX_AGE = Duration.ofSeconds(1);

    private final AgentConfig config;
    private final KubernetesClient client;
    private final KubeNode node;
    private final Departure departure;
    private StateDirectoryLock stateLock;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Readiness readiness = new Readiness();
    private final AtomicInteger stepsToReady = new AtomicInteger(2);
    private NodeAgent agent;
    private AgentMetrics metrics;
    private HttpEndpoint metricsEndpoint;
    private HttpEndpoint healthEndpoint;
    private PodResourcesEndpoint podResources;
    private CgroupTreeWatcher watcher;
    private NodeStatePublisher statePublisher;
    private CoalescingPublisher<NodeResourceTopology> nrtPublisher;
    private NriPlugin nri;
    private ReportGate<AgentReport> reportsWhenReady;
    /** Registered as an NRI plugin once ready (null: cgroup pinning only). */
    private NriPinning nriPinning;

    private boolean closed;

    private AgentDaemon(AgentConfig config, KubernetesClient client) {
        this.config = config;
        this.client = client;
        this.node = new KubeNode(
                client,
                config.nodeName(),
                config.policyName(),
                exportsNrt(config)
                        ? EnumSet.of(NodeReports.NUMA_NODE_STATE, NodeReports.NODE_RESOURCE_TOPOLOGY)
                        : EnumSet.of(NodeReports.NUMA_NODE_STATE));
        this.departure = new Departure(node, config.nodeName(), Departure.QUESTION_TIMEOUT);
    }

    private static Optional<PartitionType> partitionType(CpuPartition partition) {
        return switch (partition) {
            case NONE -> Optional.empty();
            case ROOT -> Optional.of(PartitionType.ROOT);
            case ISOLATED -> Optional.of(PartitionType.ISOLATED);
        };
    }

    private static boolean exportsNrt(AgentConfig config) {
        return Boolean.TRUE.equals(config.policy().exportNodeResourceTopology());
    }

    /**
     * Starts the agent and returns once its endpoints serve; readiness follows the first full sync and this.
     *
     * @param layout the cgroup layout when the caller knows it; otherwise detected from the mount table
     * @throws IllegalStateException naming what could not be started (topology, cgroups, ports, socket)
     */
    public static AgentDaemon start(AgentConfig config, KubernetesClient client, Optional<CgroupLayout> layout) {
        AgentDaemon d = new AgentDaemon(config, client);
        try {
            d.startParts(layout);
            return d;
        } catch (RuntimeException | IOException e) {
            d.close();
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException(e.getMessage(), e);
        }
    }

    private void startParts(Optional<CgroupLayout> given) throws IOException {
        // Before anything else: a second agent on this state directory stops here, having read, written, asked and
        // served nothing. Closed last, so the lock outlives every part that could still pin or write the checkpoint.
        stateLock = StateDirectoryLock.acquire(config.stateDir());
        closeables.add(stateLock);
        // Asked for first: the pod list arrives while the rest starts (the agent hears of it after its recovery).
        PodSource pods = InformerPodSource.listing(client, config.nodeName());
        closeables.add(pods);
        CpuTopology topo;
        try {
            topo = new SysfsTopologyReader(config.sysfsRoot()).read();
        } catch (io.podnuma.agent.sysfs.SysfsException e) {
            throw new IllegalStateException("cannot read the machine topology: " + e.getMessage(), e);
        }
        NodeAllocator allocator;
        try {
            allocator = NodeAllocator.create(topo, config.nodeConfig());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the policy does not fit this machine: " + e.getMessage(), e);
        }
        CgroupLayout layout = given.isPresent() ? given.get() : detect();
        LOG.info(
                "node {}: {} CPUs on {} NUMA nodes; cgroup {} at {}, {} naming",
                config.nodeName(),
                topo.onlineCpus().size(),
                topo.numaNodes().size(),
                layout.version(),
                layout.cpusetRoot(),
                layout.naming().driver());

        metrics = new AgentMetrics(topo);
        metricsEndpoint = metricsEndpoint(Map.of("/metrics", metrics.route()));
        closeables.add(metricsEndpoint);
        healthEndpoint = HttpEndpoint.start(
                config.healthBindAddress(),
                config.healthPort(),
                Map.of(
                        "/healthz", readiness.healthz(),
                        "/startupz", readiness.startupz(),
                        "/readyz", readiness.readyz()));
        closeables.add(healthEndpoint);

        KubeEventRecorder recorder = KubeEventRecorder.start(client, config.nodeName());
        closeables.add(recorder);
        PodEvictor evictor = new PodEvictor(client, new NodeRef(config.nodeName()), recorder);
        closeables.add(evictor);
        PodResizeConditions resizeConditions =
                new PodResizeConditions(client, new NodeRef(config.nodeName()), Duration.ofSeconds(10));
        closeables.add(resizeConditions);

        statePublisher =
                new NodeStatePublisher(new NodeStateWriter(client, config.nodeName()), config.statusMinInterval());
        closeables.add(statePublisher);
        Consumer<AgentReport> reports = r -> statePublisher.publish(NodeStateRenderer.render(r.node()));
        if (exportsNrt(config)) {
            NodeResourceTopologyWriter nrtWriter = new NodeResourceTopologyWriter(client, config.nodeName());
            nrtPublisher =
                    new CoalescingPublisher<>("noderesourcetopology", nrtWriter::write, config.statusMinInterval());
            closeables.add(nrtPublisher);
            Optional<String> nodeUid = node.uid();
            reports = reports.andThen(r -> nrtPublisher.publish(NodeResourceTopologyRenderer.render(new NrtReport(
                    config.nodeName(), nodeUid, allocator, r.node().state(), r.sharedPool()))));
        }
        reportsWhenReady = new ReportGate<>(reports);
        // Closed after the agent that asks it (closeables close in reverse order).
        KubeletCheckCache kubelet = new KubeletCheckCache(config.kubeletFiles(), config.kubeletCallTimeout());
        closeables.add(kubelet);

        // Asked by the admissions (where a pod's devices are) and by the PodResources server; closed after both.
        DeviceSource devices = config.kubeletPodResourcesSocket().isPresent()
                ? new KubeletDeviceSource(config.kubeletPodResourcesSocket().get(), config.kubeletCallTimeout())
                : DeviceSource.NONE;
        closeables.add(devices);
        CgroupFiles cgroupFiles =
                FaultInjectingCgroupFiles.fromEnvironment(System.getenv(), new HostCgroupFiles(layout));
        agent = new NodeAgent(
                new NodeAgent.Settings(
                        config.nodeName(),
                        config.policyName(),
                        config.policyHash(),
                        config.policy().admission() == AdmissionAction.EVICT
                                ? AdmissionAction.EVICT
                                : AdmissionAction.WARN,
                        config.exclusiveCpuQuota(),
                        config.reconcilePeriod(),
                        Duration.ofSeconds(30),
                        partitionType(config.policy().cpuManager().partition())),
                new NodeAgent.Parts(
                        topo,
                        allocator,
                        new PodMapper(config.budgetAnnotation().orElse(null)),
                        layout.naming(),
                        new CgroupPinWriter(layout, cgroupFiles),
                        CgroupPartitionFiles.ofThisProcess(layout, cgroupFiles),
                        () -> scan(layout),
                        new CheckpointStore(config.stateDir()),
                        pods,
                        new KubeRuntimeEvents(recorder, evictor, resizeConditions, config.nodeName()),
                        reportsWhenReady,
                        metrics,
                        kubelet,
                        devices,
                        this::stepToReady,
                        Clock.systemUTC()));
        closeables.add(agent);
        NriPinning pinning = config.pinning() == PinningMode.CGROUP
                ? null
                : new NriPinning(agent::atCreation, config.exclusiveCpuQuota(), metrics);
        if (pinning != null) {
            agent.recordIn(pinning);
            pinning.onApplied(agent::runtimeApplied);
        }
        agent.start();
        nriPinning = pinning;

        watcher = CgroupTreeWatcher.start(layout, agent.cgroupEvents());
        closeables.add(watcher);
        if (layout.version() == CgroupVersion.V1) {
            // v2 moves a container's effective set when a parent changes, without a write to report.
            agent.watchCpusets();
        }

        podResources = PodResourcesEndpoint.start(
                new PodResourcesEndpoint.Settings(
                        config.podResourcesSocket(),
                        config.podResourcesSocketMode(),
                        config.podResourcesQps(),
                        config.podResourcesBurst()),
                new PodResourcesService(
                        agent::snapshot,
                        devices.knowsDevices() ? new CachedDeviceSource(devices, DEVICES_MAX_AGE) : devices),
                metrics::podResourcesRequest);
        closeables.add(podResources);
        LOG.atLevel(podResources.directory().level())
                .log(podResources.directory().note());
        LOG.info(
                "serving /metrics ({}) on {}:{}, /healthz, /startupz and /readyz on {}:{}, PodResources on {} ({})",
                config.metricsSecurity().settingName(),
                config.metricsBindAddress(),
                metricsEndpoint.port(),
                config.healthBindAddress(),
                healthEndpoint.port(),
                config.podResourcesSocket(),
                sinceJvmStart());
        stepToReady();
    }

    /**
     * One of the two things readiness waits for: the first full sync (on the agent's loop) and the end of the start
     * (every endpoint serving, the cgroup watch on). The pod list is asked for first, so the sync may come first.
     */
    private void stepToReady() {
        if (stepsToReady.decrementAndGet() == 0) {
            readiness.markReady();
            LOG.info("ready: {}", sinceJvmStart());
            reportsWhenReady.open();
            // After ready, not during the start: the runtime's Synchronize names every container on the node (321 on
            // the bench node; 70-100 ms of CPU to read), and until the first full sync the agent could only answer a
            // creation from its checkpoint. A container created before this starts unpinned and is pinned through its
            // cgroup, as one created while the agent restarts.
            startNri(nriPinning);
        }
    }

    /**
     * How long this process has run and the CPU it has used, as the kernel counts them (its start in
     * {@code /proc/self/stat} against {@code /proc/uptime}, to the clock tick; {@link ProcessHandle.Info#startInstant}
     * is off by up to a second): what a restart costs before the agent serves and is ready, for whoever reads the log
     * of a rolling update. The CPU tells the agent's own cost from a busy node's wait.
     */
    static String sinceJvmStart() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            double started = Long.parseLong(f[19]) / 100.0;
            long cpuTicks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            double now =
                    Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            return Math.round((now - started) * 1000) + " ms after the JVM started, " + cpuTicks * 10 + " ms of CPU";
        } catch (IOException | RuntimeException e) {
            return "time since the JVM started unknown: " + e.getMessage();
        }
    }

    /**
     * {@code /metrics} as {@code metricsSecurity} says: plain HTTP, or HTTPS where each scrape's bearer token is
     * checked with a TokenReview and a SubjectAccessReview under the agent's own ServiceAccount (cached per token).
     * The probes stay on the plain health port: the kubelet's HTTP probes carry no token.
     */
    private HttpEndpoint metricsEndpoint(Map<String, io.podnuma.agent.http.Route> routes) {
        if (config.metricsSecurity() == MetricsSecurity.HTTP) {
            return HttpEndpoint.start(config.metricsBindAddress(), config.metricsPort(), routes);
        }
        SecureServing serving;
        try {
            serving = SecureServing.create(
                    config.metricsTls(),
                    new KubeAccessReviews(client),
                    "podnuma-agent",
                    List.of(config.nodeName(), "localhost", "127.0.0.1", "::1"),
                    Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("cannot serve /metrics over https: " + e.getMessage(), e);
        }
        LOG.info(
                "/metrics over https with {}; scrapes need a bearer token allowed to get /metrics",
                serving.certificate());
        return HttpEndpoint.startSecure(config.metricsBindAddress(), config.metricsPort(), routes, serving);
    }

    /**
     * Unless {@code pinning: cgroup}: the agent registers with the runtime as an NRI plugin, so containers are born
     * pinned; until it is connected (and whenever it is not) the cgroup path pins them after creation.
     */
    private synchronized void startNri(NriPinning pinning) {
        if (closed) {
            return;
        }
        if (pinning == null) {
            LOG.info("pinning: cgroup: containers are pinned after creation, through their cgroups");
            return;
        }
        nri = NriPlugin.start(
                new NriPluginSettings(
                        config.nri().socket(),
                        config.nri().pluginName(),
                        config.nri().pluginIndex(),
                        NRI_RECONNECT_MIN,
                        NRI_RECONNECT_MAX),
                pinning);
        pinning.plugin(nri);
        closeables.add(nri);
        if (config.pinning() == PinningMode.NRI) {
            Thread.ofVirtual().name("nri-watch").start(this::warnWhileNriAbsent);
        }
    }

    /** {@code pinning: nri} asks for NRI: say so while no runtime answers (auto stays quiet). */
    private void warnWhileNriAbsent() {
        try {
            Thread.sleep(NRI_GRACE.toMillis());
            while (nri.state() != io.podnuma.agent.nri.NriConnectionState.CLOSED) {
                if (!nri.connected()) {
                    LOG.warn(
                            "pinning: nri, but no container runtime answers on {} ({}): containers are pinned after"
                                    + " creation until one does; is NRI enabled in the runtime's configuration?",
                            config.nri().socket(),
                            nri.state());
                }
                Thread.sleep(NRI_WARN_EVERY.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private CgroupLayout detect() throws IOException {
        String mountinfo = Files.readString(Path.of("/proc/self/mountinfo"));
        try {
            return new CgroupDetector(config.cgroupRoot())
                    .detect(mountinfo, config.cgroupDriver(), config.kubeletCgroupRoot());
        } catch (io.podnuma.agent.cgroup.CgroupDetectionException e) {
            throw new IllegalStateException("cgroups: " + e.getMessage(), e);
        }
    }

    private static List<FoundContainer> scan(CgroupLayout layout) {
        try {
            return CgroupTreeScanner.scan(layout);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the container cgroups: " + e.getMessage(), e);
        }
    }

    public NodeAgent agent() {
        return agent;
    }

    public AgentMetrics metrics() {
        return metrics;
    }

    public int metricsPort() {
        return metricsEndpoint.port();
    }

    public int healthPort() {
        return healthEndpoint.port();
    }

    public Path podResourcesSocket() {
        return podResources.socket();
    }

    /**
     * Stops the agent as SIGTERM asks: pins stay for the next agent, unless the node has left podnuma, in which
     * case every container gets everything back and the checkpoint and the node's reports are removed.
     */
    public void shutdown() {
        Shutdown how = agent == null ? Shutdown.KEEP_PINS : departure.decide();
        departure.announce(how);
        if (agent != null) {
            agent.stop(how);
        }
        departure.after(how);
        if (how == Shutdown.RESTORE && stateLock != null) {
            stateLock.removeOnRelease();
        }
        close();
        LOG.info("stopped");
    }

    @Override
    public void close() {
        List<AutoCloseable> open;
        synchronized (this) {
            // A ready step still on its way (the loop's first sync) then starts no NRI plugin that nobody closes.
            closed = true;
            open = List.copyOf(closeables);
            closeables.clear();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                LOG.warn("closing {} failed: {}", open.get(i).getClass().getSimpleName(), e.getMessage());
            }
        }
    }
}
