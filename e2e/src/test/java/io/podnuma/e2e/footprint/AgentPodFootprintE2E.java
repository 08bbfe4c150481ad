package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.images.PodnumaImage;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's footprint on the real node as a cluster admin sees it (the bench group {@code node}): {@code helm
 * install} of the chart with the real-node values, the quickstart policy, the node filled with workload pods up to its
 * pod limit (one Guaranteed pod with a pod budget, Burstable ones with several containers), the agent pod restarted
 * with the node full (time to Ready), then, after settling, the agent pod's memory cgroup (usage, working set, rss,
 * cache), its JVM's VmRSS and its CPU over an idle window, beside the same figures of an idle JVM pod from the agent
 * image with the agent's flags. Figures are printed ({@code [AgentPodFootprintE2E] ...}), never asserted; what is
 * asserted is that the run did what it says (pods ran, the pods' cgroups were found).
 *
 * <p>{@code -Dpodnuma.node.quick=true}: 30 s idle window instead of 60 s, 45 s in service instead of 90 before the
 * restart; {@code -Dpodnuma.node.inService=S}: seconds the node runs its pods before the restart;
 * {@code -Dpodnuma.node.agentCpu=Q}: the agent's CPU request (the chart's default; {@code none}: no request);
 * {@code -Dpodnuma.node.settle=S}: seconds of settling before the idle window (60); {@code -Dpodnuma.node.poll=S}: how
 * often each workload container reads its affinity (60); {@code -Dpodnuma.node.containers=N}: containers per
 * Burstable pod (3); {@code -Dpodnuma.node.pods=N}: workload pods at most (110, the kubelet's default limit).
 */
class AgentPodFootprintE2E {

    private static final String TAG = "[AgentPodFootprintE2E] ";
    private static final String NS = "footprint";
    /** The policy of {@code crds/examples/quickstart.yaml} and the label it selects nodes by. */
    private static final String POLICY = "quickstart";

    private static final String NODE_LABEL = "podnuma.io/pinning";
    private static final boolean QUICK = Boolean.getBoolean("podnuma.node.quick");
    private static final int CONTAINERS = Integer.getInteger("podnuma.node.containers", 3);
    private static final int MAX_PODS = Integer.getInteger("podnuma.node.pods", 110);
    /**
     * After the restart the agent still compiles (C1) for a minute or more as its steady paths get hot: that is part
     * of the start's cost, not of the idle node's, so the idle window begins a minute after the baseline pod ran.
     */
    private static final Duration SETTLE = Duration.ofSeconds(Integer.getInteger("podnuma.node.settle", 60));

    /**
     * How often each workload container reads its affinity. Not every second, as in the pinning tests: 330 containers
     * polling on a 2-CPU machine kept it half busy, and the agent's figures measured the machine's contention rather
     * than the agent.
     */
    private static final Duration POLL = Duration.ofSeconds(Integer.getInteger("podnuma.node.poll", 60));

    private static final Duration IDLE = Duration.ofSeconds(QUICK ? 30 : 60);

    /**
     * How long the node runs its workload pods before the agent is restarted: a rolling update meets a node in
     * service, not one still starting a hundred pods (the kubelet reports their statuses for a minute after).
     */
    private static final Duration IN_SERVICE =
            Duration.ofSeconds(Integer.getInteger("podnuma.node.inService", QUICK ? 45 : 90));

    /**
     * The agent pod's CPU request: the chart's default unless {@code -Dpodnuma.node.agentCpu=} names one ({@code none}:
     * no request, so the pod's cgroup has the smallest CPU weight), to tell the node's contention from the agent's cost.
     */
    private static final String AGENT_CPU = System.getProperty("podnuma.node.agentCpu", "");

    /**
     * How often the agent is restarted and timed: one start on a shared machine is one draw (the same build gave 2.9 to
     * 4.4 s), so the table shows the median of these.
     */
    private static final int RESTARTS = Integer.getInteger("podnuma.node.restarts", 3);

    /** The pause between two restarts: the kubelet reports the new pod's statuses, the old JVM's pages go. */
    private static final Duration BETWEEN_RESTARTS = Duration.ofSeconds(15);

    /**
     * {@code JAVA_TOOL_OPTIONS} for the agent's JVM (empty: none), to profile its start on the node; not for the
     * figures of record (a recording costs CPU of its own).
     */
    private static final String AGENT_JAVA_OPTIONS = System.getProperty("podnuma.node.agentJavaOptions", "");

    /** How often {@code /readyz} is asked after the restart: the resolution of the ready figure. */
    private static final Duration READY_POLL = Duration.ofMillis(25);

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final Duration HELM = Duration.ofSeconds(150);
    /** The agent's jar in its image: what tells the agent's JVM from the other JVMs on the node. */
    private static final String AGENT_JAR = "/opt/podnuma/node-agent.jar";

    private static final String AOT_CACHE_FLAG = "-XX:AOTCache=";
    private static final List<PodnumaImage> IMAGES =
            List.of(PodnumaImage.OPERATOR, PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    @TempDir
    Path workDir;

    static final String BENCH_PROPERTY = "podnuma.node.bench";

    private final List<String> lines = new ArrayList<>();

    @Test
    void theAgentPodBesideAnIdleJvmPodOnAFullNode() throws Exception {
        // A measurement (scripts/bench's node group sets the property), not part of the test suite: the chart on the
        // real node is RealNodeHelmJourneyE2E's, and three minutes of filling a node would only lengthen every CI run.
        boolean bench = Boolean.getBoolean(BENCH_PROPERTY);
        if (!bench) {
            System.err.println(
                    TAG + "skipped: a bench, run by BENCH_ONLY=node scripts/bench (-D" + BENCH_PROPERTY + "=true)");
        }
        Assumptions.assumeTrue(bench, "a bench: -D" + BENCH_PROPERTY + "=true");
        RealNode.assumeAvailable(AgentPodFootprintE2E.class);
        Optional<String> noImages = RealNodeAgent.whyMissing(RealNodeAgent.tars(IMAGES));
        noImages.ifPresent(why -> System.err.println(TAG + "skipped: " + why));
        Assumptions.assumeTrue(noImages.isEmpty(), () -> noImages.orElse(""));
        CpuList cpus = CpuList.parse(Files.readString(Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus")));
        Assumptions.assumeTrue(cpus.size() >= 2, "the quickstart policy reserves one CPU and pins a pod to another");
        try (RealNode node =
                RealNode.startWithPlane(RealNodeOptions.defaults().withImages(RealNodeAgent.tars(IMAGES)))) {
            try {
                run(node);
            } finally {
                lines.forEach(l -> System.err.println(TAG + l));
            }
        }
    }

    private void run(RealNode node) throws Exception {
        LocalControlPlane plane = node.plane();
        int healthPort = FreePorts.next();
        int metricsPort = FreePorts.next();
        PodnumaChart chart = new PodnumaChart(plane, workDir.resolve("helm"));
        Map<String, Object> values = PodnumaChart.realNodeValues(
                node,
                RealNodeAgent.reference(PodnumaImage.OPERATOR),
                RealNodeAgent.reference(PodnumaImage.NODE_AGENT),
                metricsPort,
                healthPort);
        setAgentCpuRequest(values);
        chart.install(values, HELM);
        plane.kubectl("label", "node", node.nodeName(), NODE_LABEL + "=enabled", "--overwrite")
                .assertSuccess();
        plane.kubectl(
                        "apply",
                        "-f",
                        Repository.resolve("crds/examples/quickstart.yaml").toString())
                .assertSuccess();
        Pod agent = awaitAgent(plane, node, Optional.empty());
        lines.add("agent pod CPU request: "
                + Optional.ofNullable(agent.getSpec()
                                .getContainers()
                                .get(0)
                                .getResources()
                                .getRequests()
                                .get("cpu"))
                        .map(Object::toString)
                        .orElse("none")
                + (AGENT_CPU.isEmpty() ? " (the chart's default)" : " (-Dpodnuma.node.agentCpu=" + AGENT_CPU + ")"));

        // The node full: as many workload pods as its pod limit leaves beside podnuma's and the baseline's.
        plane.ensureNamespace(NS);
        int allocatable = plane.client()
                .nodes()
                .withName(node.nodeName())
                .get()
                .getStatus()
                .getAllocatable()
                .get("pods")
                .getNumericalAmount()
                .intValue();
        int slots = Math.min(MAX_PODS, allocatable - podsOn(plane, node) - 1);
        assertThat(slots).as("room for workload pods").isPositive();
        List<Pod> pods = workloadPods(node.nodeName(), slots);
        long t0 = System.nanoTime();
        for (Pod p : pods) {
            plane.client()
                    .pods()
                    .inNamespace(NS)
                    .resource(WorkloadPods.ofImage(p, RealNodeAgent.workloadImage()))
                    .create();
        }
        int containers = 0;
        for (Pod p : pods) {
            Pod running = node.awaitRunning(NS, p.getMetadata().getName());
            containers += running.getStatus().getContainerStatuses().size();
        }
        lines.add(String.format(
                Locale.ROOT,
                "node %s (%d CPUs, pod limit %d): %d workload pods with %d containers ran (1 Guaranteed with a"
                        + " 1-CPU pod budget, %d Burstable with %d containers each; each container looks at its affinity every %d s)"
                        + " in %.1f s",
                node.nodeName(),
                cpus(),
                allocatable,
                pods.size(),
                containers,
                pods.size() - 1,
                CONTAINERS,
                POLL.toSeconds(),
                (System.nanoTime() - t0) / 1e9));

        // Every change of the node's pods from here to the end of the idle window, by the half minute: whether the
        // kubelet still rewrites the pods' status when the window begins.
        PodEventCount sinceRunning = PodEventCount.watch(plane.client(), node.nodeName());
        // Readiness with the node full, as after a rolling update of a node in service: the pods' starts settled
        // first, then the pod deleted and the DaemonSet's next one timed.
        lines.add("the agent restarted " + IN_SERVICE.toSeconds() + " s after the last workload pod ran; the machine's"
                + " CPUs busy in each 15 s of those (/proc/stat): " + String.join(", ", busyEach(IN_SERVICE)));
        if (!AGENT_JAVA_OPTIONS.isEmpty()) {
            agent = withJavaOptions(plane, node, agent);
        }
        List<ReadyTiming> restarts = new ArrayList<>();
        for (int i = 1; i <= RESTARTS; i++) {
            if (i > 1) {
                TimeUnit.NANOSECONDS.sleep(BETWEEN_RESTARTS.toNanos());
                keepRecording(node, agent, i - 1);
            }
            ReadyTiming t = restartAndTimeReady(plane, node, agent, healthPort);
            agent = t.pod();
            restarts.add(t);
            // Not part of the table: what the restarted agent did before it was ready, for whoever reads the log.
            String startLog = agentLog(plane, agent, "--tail=40");
            System.err.println("the restarted agent's log (restart " + i + "):\n" + startLog);
            String own = startLog.lines()
                    .filter(l -> l.contains("AgentDaemon - ready: "))
                    .findFirst()
                    .map(l -> l.substring(l.indexOf("ready: ") + "ready: ".length()))
                    .orElse("(no ready line in its log)");
            lines.add(String.format(
                    Locale.ROOT,
                    "restart %d of %d: ready %.2f s after its JVM started (the kubelet: %d s); its own account: %s",
                    i,
                    RESTARTS,
                    t.ready().toMillis() / 1000.0,
                    t.kubeletReady().toSeconds(),
                    own));
            t.startCost().forEach(l -> lines.add("  " + l));
        }
        TimeUnit.NANOSECONDS.sleep(BETWEEN_RESTARTS.toNanos());
        keepRecording(node, agent, RESTARTS);
        ReadyTiming timing = median(restarts);
        lines.add("ready over the " + restarts.size() + " restarts, in the table the median: "
                + restarts.stream()
                        .map(t -> String.format(Locale.ROOT, "%.2f s", t.ready().toMillis() / 1000.0))
                        .collect(java.util.stream.Collectors.joining(", ")));
        long agentPid = pid(node, agent);
        List<String> cmdline = ProcFs.cmdline(agentPid);
        lines.add("agent command line (the image's entrypoint): " + String.join(" ", cmdline));

        Pod baseline = startBaseline(plane, node, agent, cmdline);
        long baselinePid = pid(node, baseline);
        TimeUnit.NANOSECONDS.sleep(SETTLE.toNanos());

        PodCgroup agentCgroup = PodCgroup.of(PodCgroup.HOST_ROOT, agent);
        PodCgroup baselineCgroup = PodCgroup.of(PodCgroup.HOST_ROOT, baseline);
        String loadBefore = loadAverage();
        MachineTicks machine0 = MachineTicks.now();
        long agentCpu0 = agentCgroup.cpuNanos();
        long baselineCpu0 = baselineCgroup.cpuNanos();
        PrometheusText metrics0 = scrape(metricsPort);
        Map<Long, ProcFs.ThreadCpu> threads0 = ProcFs.threads(agentPid);
        PodEventCount podEvents = PodEventCount.watch(plane.client(), node.nodeName());
        long w0 = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(IDLE.toNanos());
        podEvents.close();
        sinceRunning.close();
        long agentCpu1 = agentCgroup.cpuNanos();
        long baselineCpu1 = baselineCgroup.cpuNanos();
        double window = System.nanoTime() - w0;
        Map<Long, ProcFs.ThreadCpu> threads1 = ProcFs.threads(agentPid);
        PrometheusText metrics1 = scrape(metricsPort);
        // Not part of the table: what the agent logged while it was idle, for whoever reads the idle CPU.
        System.err.println("the agent's log since the idle window began:\n"
                + agentLog(plane, agent, "--since=" + (IDLE.toSeconds() + 1) + "s"));
        MachineTicks machine1 = MachineTicks.now();
        double busy = machine1.busyPercentSince(machine0);
        Footprint agentFigures = new Footprint(
                agentCgroup.memoryNow(),
                ProcFs.resident(agentPid),
                (agentCpu1 - agentCpu0) / window * 1000,
                Optional.of(timing.ready()),
                Optional.of(timing.kubeletReady()));
        Footprint baselineFigures = new Footprint(
                baselineCgroup.memoryNow(),
                ProcFs.resident(baselinePid),
                (baselineCpu1 - baselineCpu0) / window * 1000,
                Optional.empty(),
                Optional.empty());
        lines.add("agent pod cgroup " + agentCgroup.memory() + "; baseline (idle JVM, the agent's flags, same"
                + " resources) " + baselineCgroup.memory());
        lines.add("settled " + SETTLE.toSeconds() + " s after the baseline pod ran; load average (/proc/loadavg) before"
                + " the idle window: " + loadBefore + ", after: " + loadAverage()
                + String.format(Locale.ROOT, "; the machine's CPUs were %.0f%% busy during it (/proc/stat)", busy));
        lines.add("");
        lines.addAll(FootprintTable.render(FootprintTable.rows(agentFigures, baselineFigures, IDLE)));
        lines.add("");
        lines.add("the agent's busiest threads in the idle window: "
                + String.join(", ", IdleActivity.threads(threads0, threads1, window, 8)));
        lines.add("changes of pods on the node in it (a watch like the agent's): " + podEvents.summary()
                + "; the fields they changed: " + podEvents.changedFields(12));
        long windowFrom = sinceRunning.secondsSinceStart(w0);
        lines.add("changes of the node's pods per 30 s since the last workload pod ran (the agent restarted at "
                + IN_SERVICE.toSeconds() + " s, the idle window " + windowFrom + "-" + (windowFrom + IDLE.toSeconds())
                + " s): " + sinceRunning.timeline(Duration.ofSeconds(windowFrom + IDLE.toSeconds()))
                + "; the fields they changed: " + sinceRunning.changedFields(4));
        lines.add("its counters that moved in it (one scrape before, one after): "
                + String.join(", ", IdleActivity.counters(metrics0, metrics1)));
        assertThat(agentFigures.memory().usageBytes())
                .as("the agent pod's memory cgroup")
                .isPositive();
    }

    /** The agent's CPU request in the real-node values (which have none) as {@link #AGENT_CPU} says. */
    @SuppressWarnings("unchecked")
    private static void setAgentCpuRequest(Map<String, Object> values) {
        Map<String, Object> requests = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) values.get("agent")).get("resources")).get("requests");
        if (AGENT_CPU.isEmpty()) {
            requests.remove("cpu");
        } else if (!AGENT_CPU.equals("none")) {
            requests.put("cpu", AGENT_CPU);
        }
    }

    /** The machine's busy share in each 15 s of {@code span}, while it passes. */
    private static List<String> busyEach(Duration span) throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        long end = System.nanoTime() + span.toNanos();
        while (System.nanoTime() < end) {
            MachineTicks t0 = MachineTicks.now();
            TimeUnit.NANOSECONDS.sleep(Math.min(Duration.ofSeconds(15).toNanos(), end - System.nanoTime()));
            out.add(String.format(Locale.ROOT, "%.0f%%", MachineTicks.now().busyPercentSince(t0)));
        }
        return out;
    }

    /** The agent pod, its restart's JVM start → first /readyz 200, and the kubelet's startedAt → Ready. */
    record ReadyTiming(Pod pod, Duration ready, Duration kubeletReady, List<String> startCost) {}

    /**
     * The agent's DaemonSet with {@code JAVA_TOOL_OPTIONS} set to {@link #AGENT_JAVA_OPTIONS} (a field the operator's
     * server-side apply does not own, so it stays), and the pod of that template once Ready: a profile of the start
     * on the node, e.g. {@code -XX:StartFlightRecording=duration=15s,filename=/tmp/start.jfr,settings=profile}.
     */
    private static Pod withJavaOptions(LocalControlPlane plane, RealNode node, Pod agent) throws InterruptedException {
        String daemonSet = agent.getMetadata().getOwnerReferences().get(0).getName();
        plane.kubectl(
                        "set",
                        "env",
                        "-n",
                        PodnumaChart.NAMESPACE,
                        "daemonset/" + daemonSet,
                        "JAVA_TOOL_OPTIONS=" + AGENT_JAVA_OPTIONS)
                .assertSuccess();
        System.err.println(
                TAG + "the agent's DaemonSet " + daemonSet + " runs with JAVA_TOOL_OPTIONS=" + AGENT_JAVA_OPTIONS);
        return awaitAgent(plane, node, Optional.of(agent.getMetadata().getUid()));
    }

    /**
     * With {@link #AGENT_JAVA_OPTIONS}: the flight recordings the restart's JVM wrote under its {@code /tmp}, copied
     * from its root (as the host sees it) to {@code target/node-bench-jfr/restart-<n>-<name>}.
     */
    private static void keepRecording(RealNode node, Pod agent, int restart) throws IOException {
        if (AGENT_JAVA_OPTIONS.isEmpty()) {
            return;
        }
        Path tmp = Path.of("/proc/" + pid(node, agent) + "/root/tmp");
        Path out = Path.of("target/node-bench-jfr").toAbsolutePath();
        Files.createDirectories(out);
        try (var files = Files.list(tmp)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".jfr")).toList()) {
                Path copy = out.resolve("restart-" + restart + "-" + f.getFileName());
                Files.copy(f, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                System.err.println(TAG + "the flight recording of restart " + restart + ": " + copy);
            }
        }
    }

    /** The restart whose ready time is the median (the upper one of an even count). */
    static ReadyTiming median(List<ReadyTiming> restarts) {
        List<ReadyTiming> sorted = restarts.stream()
                .sorted(java.util.Comparator.comparing(ReadyTiming::ready))
                .toList();
        return sorted.get(sorted.size() / 2);
    }

    private ReadyTiming restartAndTimeReady(LocalControlPlane plane, RealNode node, Pod old, int healthPort)
            throws Exception {
        plane.kubectl(
                        "delete",
                        "pod",
                        "-n",
                        PodnumaChart.NAMESPACE,
                        old.getMetadata().getName(),
                        "--wait=true",
                        "--timeout=90s")
                .assertSuccess();
        // The old pod is gone only once its JVM has exited: the first 200 from here on is the new JVM's.
        URI readyz = URI.create("http://127.0.0.1:" + healthPort + "/readyz");
        long deadline = System.nanoTime() + WAIT.toNanos();
        double readyAt = -1;
        List<String> startCost = List.of();
        while (readyAt < 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no 200 from " + readyz + " within " + WAIT.toSeconds() + " s");
            }
            if (answersOk(readyz)) {
                readyAt = ProcFs.uptimeSeconds();
                startCost = startCost();
            } else {
                // Not every 10 ms: each answer costs the agent ~0.3 ms of CPU on the one CPU it shares with the
                // node (its pod is pinned to the shared pool), ~100 ms over a start.
                TimeUnit.MILLISECONDS.sleep(READY_POLL.toMillis());
            }
        }
        Pod fresh = awaitAgent(plane, node, Optional.of(old.getMetadata().getUid()));
        double started = ProcFs.startSeconds(pid(node, fresh));
        ContainerStatus status = fresh.getStatus().getContainerStatuses().get(0);
        Instant startedAt = Instant.parse(status.getState().getRunning().getStartedAt());
        Instant readyCondition = fresh.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .map(PodCondition::getLastTransitionTime)
                .map(Instant::parse)
                .findFirst()
                .orElseThrow();
        return new ReadyTiming(
                fresh,
                Duration.ofNanos(Math.round((readyAt - started) * 1e9)),
                Duration.between(startedAt, readyCondition),
                startCost);
    }

    /**
     * Read at the agent's first 200, before anything else: its threads by the CPU they used to get there, and whether
     * its JVM maps the image's AOT cache (a cache the JVM cannot use is left out with a warning, and the start pays
     * for every class again).
     */
    private static List<String> startCost() throws IOException {
        List<Long> agents = ProcFs.running(AGENT_JAR);
        if (agents.isEmpty()) {
            return List.of("no process runs " + AGENT_JAR);
        }
        long pid = agents.getLast();
        List<String> out = new ArrayList<>();
        out.add("the CPUs its JVM may run on: " + ProcFs.cpusAllowed(pid));
        Map<Long, ProcFs.ThreadCpu> threads = ProcFs.threads(pid);
        out.add("its threads by the CPU they used to get ready (schedstat at the first 200): "
                + String.join(", ", IdleActivity.threadsSinceStart(threads, 10)));
        out.add("their wait for a CPU while runnable (schedstat): " + IdleActivity.runQueueWait(threads));
        Optional<String> cache = ProcFs.cmdline(pid).stream()
                .filter(a -> a.startsWith(AOT_CACHE_FLAG))
                .map(a -> a.substring(AOT_CACHE_FLAG.length()))
                .findFirst();
        out.add(
                cache.isEmpty()
                        ? "its JVM runs without an AOT cache (no " + AOT_CACHE_FLAG + " on its command line)"
                        : "its AOT cache " + cache.get() + (ProcFs.maps(pid, cache.get()) ? " is" : " is NOT")
                                + " mapped (/proc/<pid>/maps)");
        return out;
    }

    private Pod startBaseline(LocalControlPlane plane, RealNode node, Pod agent, List<String> agentCmdline)
            throws IOException {
        Path classes = workDir.resolve("idle-classes");
        String resource = IdleMain.class.getName().replace('.', '/') + ".class";
        Path file = classes.resolve(resource);
        Files.createDirectories(file.getParent());
        try (InputStream in = IdleMain.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource + " on the test class path").isNotNull();
            Files.copy(in, file);
        }
        Container agentContainer = agent.getSpec().getContainers().get(0);
        Pod pod = IdleJvmPod.pod(
                NS,
                "idle-jvm",
                node.nodeName(),
                RealNodeAgent.reference(PodnumaImage.NODE_AGENT),
                IdleJvmPod.command(agentCmdline),
                agentContainer.getResources(),
                classes);
        plane.client().pods().inNamespace(NS).resource(pod).create();
        return node.awaitRunning(NS, "idle-jvm");
    }

    /**
     * The agent bench's node of pods ({@link SamplePods#benchNode}) without the Burstable containers' CPU requests: the
     * real kubelet admits by requests, and a hundred pods of 10m containers do not fit a two-CPU node.
     */
    private static List<Pod> workloadPods(String node, int pods) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : SamplePods.benchNode(node, pods, CONTAINERS)) {
            Pod copy = new PodBuilder(p).build();
            // The workload's first argument: how often it looks at its own affinity (its only work).
            copy.getSpec().getContainers().forEach(c -> c.setArgs(List.of(Long.toString(POLL.toSeconds()))));
            if (!SamplePods.isBenchPinned(p)) {
                copy.getSpec()
                        .getContainers()
                        .forEach(c -> c.getResources().getRequests().remove("cpu"));
            }
            out.add(copy);
        }
        return out;
    }

    private static int podsOn(LocalControlPlane plane, RealNode node) {
        return (int)
                plane
                        .client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", node.nodeName())
                        .list()
                        .getItems()
                        .stream()
                        .filter(p -> !"Succeeded".equals(p.getStatus().getPhase())
                                && !"Failed".equals(p.getStatus().getPhase()))
                        .count();
    }

    private static Pod awaitAgent(LocalControlPlane plane, RealNode node, Optional<String> notThisUid)
            throws InterruptedException {
        return Waits.await(
                WAIT,
                () -> "a Ready agent pod on " + node.nodeName() + ":\n"
                        + plane.kubectl("get", "pods,ds", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                                .output(),
                () -> plane
                        .client()
                        .pods()
                        .inNamespace(PodnumaChart.NAMESPACE)
                        .withLabels(AgentRender.selector(POLICY))
                        .list()
                        .getItems()
                        .stream()
                        .filter(p -> node.nodeName().equals(p.getSpec().getNodeName()))
                        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                        .filter(p -> notThisUid
                                .map(u -> !u.equals(p.getMetadata().getUid()))
                                .orElse(true))
                        .filter(RealNodeAgent::ready)
                        .findFirst());
    }

    private static long pid(RealNode node, Pod pod) {
        String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
        return node.containerPid(id).orElseThrow(() -> new AssertionError("no running task for " + id));
    }

    /** {@code kubectl logs --timestamps} of the agent pod, {@code which} lines (--tail=N or --since=D). */
    private static String agentLog(LocalControlPlane plane, Pod agent, String which) {
        return plane.kubectl(
                        "logs",
                        "-n",
                        PodnumaChart.NAMESPACE,
                        agent.getMetadata().getName(),
                        "--timestamps",
                        which)
                .stdout();
    }

    /** The agent's {@code /metrics} (host network, the chart's metrics port). */
    private static PrometheusText scrape(int port) throws IOException, InterruptedException {
        return PrometheusText.parse(HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
    }

    private static boolean answersOk(URI uri) {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(uri)
                                            .timeout(Duration.ofSeconds(1))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int cpus() throws IOException {
        return CpuList.parse(Files.readString(Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus")))
                .size();
    }

    /**
     * The machine's CPU time so far, from the first line of {@code /proc/stat} in clock ticks (busy: all but idle and
     * iowait), so that a reader can tell a quiet idle window from one that other engineers' builds shared.
     */
    record MachineTicks(long busy, long total) {
        static MachineTicks now() throws IOException {
            String[] f =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).strip().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            return new MachineTicks(total - Long.parseLong(f[4]) - Long.parseLong(f[5]), total);
        }

        double busyPercentSince(MachineTicks before) {
            return 100.0 * (busy - before.busy) / Math.max(1, total - before.total);
        }
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }
}
