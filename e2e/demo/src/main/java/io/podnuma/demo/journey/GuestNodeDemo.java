package io.podnuma.demo.journey;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.GuestKernel;
import io.podnuma.controlplane.GuestNode;
import io.podnuma.controlplane.GuestNodeOptions;
import io.podnuma.controlplane.GuestTopology;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.images.PodnumaImage;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.devices.AccelPlugin;
import io.podnuma.testkit.metrics.PlainMetrics;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The helm journey on the machines podnuma is for: a worker node in a QEMU guest ({@link GuestNode}: two NUMA nodes
 * of 2 cores × 2 threads, cgroup v2 only, the same kubelet and containerd as the real node) registered to a control
 * plane of its own. {@code helm install}, the {@code numa-aligned} example policy ({@code single-numa-node} at pod
 * scope, the memory manager {@code Static}), two budgets that end up on different NUMA nodes, a budget bigger than a
 * NUMA node (refused, shared pool) and a Burstable pod, in a table of what each container reports from inside beside
 * what its cgroup's {@code cpuset.cpus.effective} and {@code cpuset.mems.effective} say in the guest; the memory a
 * container writes, page by page on its NUMA node ({@code numa_maps}); two accelerators on NUMA node 1 (the test kit's
 * device plugin, {@link AccelPlugin}): a budget asking for one placed where it is, one that cannot fit there refused;
 * then the policy changed to {@code best-effort}: the agent rolls, the pins stay, and a budget bigger than a NUMA node
 * spreads across both.
 *
 * <p>The operator runs as a process of this machine with the settings the chart rendered ({@link ChartOperator}): a
 * second JVM under software emulation would only slow the journey; the agent runs as its DaemonSet's pod in the guest.
 */
public final class GuestNodeDemo {

    static final String POLICY = "numa-aligned";
    static final String NS = "demo";
    static final GuestTopology TOPOLOGY = GuestTopology.TWO_NODES;
    /** More CPUs than a NUMA node of {@link #TOPOLOGY} has. */
    static final int WIDE = TOPOLOGY.cpusPerNode() + 1;

    private static final List<PodnumaImage> IMAGES = List.of(PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);
    /** An agent JVM starts in about a minute under software emulation. */
    private static final Duration AGENT_READY =
            Duration.ofSeconds(Long.getLong("podnuma.guestjourney.agentSeconds", 420));
    /** A sandbox takes 10–30 s to start or stop under emulation, more on a loaded machine. */
    private static final Duration WAIT = Duration.ofSeconds(300);

    private static final int NUMA_MAPS_MIB = 64;
    /** The NUMA node of the test device plugin's accelerators. */
    static final int ACCEL_NODE = 1;
    /** Two accelerators on {@link #ACCEL_NODE}, as the inference node has them. */
    private static final AccelPlugin ACCELERATORS = AccelPlugin.onNumaNode(2, ACCEL_NODE);

    private static final Pattern NODE_PAGES = Pattern.compile(" N(\\d+)=(\\d+)");
    /** The agent's line for a resize in force: the time from the pod's update taken to its cpusets written. */
    private static final Pattern RESIZE_WRITTEN =
            Pattern.compile("resized in place: its new CPUs written ([0-9.]+) ms after its update was taken"
                    + " \\(checkpoint ([0-9.]+) ms, cgroups ([0-9.]+) ms, reports ([0-9.]+) ms\\)");
    /** Timed resizes after the resize steps ({@code -Dpodnuma.guestjourney.resizes}, the bench's); 0: none. */
    private static final int RESIZES = Integer.getInteger("podnuma.guestjourney.resizes", 0);

    /** How much of the journey runs. */
    public enum Length {
        /**
         * Up to the pods with accelerators, after the one too big for a NUMA node: what CI runs (the tier's CI budget
         * is 8 minutes; the full journey took 263 s alone, the agent's roll 63 s of it).
         */
        SHORT,
        /** Then the policy changed to {@code best-effort}: the agent rolls, and the same budget spreads. */
        FULL;

        /** {@code -Dpodnuma.guestjourney=full} or {@code short}; {@code fallback} when not set. */
        public static Length fromProperty(Length fallback) {
            String v = System.getProperty("podnuma.guestjourney");
            if (v == null || v.isBlank()) {
                return fallback;
            }
            try {
                return valueOf(v.strip().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "-Dpodnuma.guestjourney=" + v + ": the guest journey is either short or full", e);
            }
        }
    }

    private final Path root;
    private final Path workDir;
    private final DemoImages images;
    private final PrintStream out;
    private final Length length;
    private long started = System.nanoTime();

    public GuestNodeDemo(Path root, Path workDir, String tag, PrintStream out, Length length) {
        this.root = root;
        this.workDir = workDir;
        this.images = new DemoImages(root, tag);
        this.out = out;
        this.length = length;
    }

    /**
     * Why the journey cannot even try (the images are not built); that a guest cannot boot here shows as
     * {@link io.podnuma.controlplane.ControlPlaneUnavailableException} from {@link #run}.
     */
    public Optional<String> unavailable() {
        return images.missing(IMAGES).or(AccelPlugin::whyUnavailable);
    }

    /** Boots the guest node, runs the journey, powers the guest off; returns what was seen. */
    public GuestReport run() throws Exception {
        started = System.nanoTime();
        long t0 = started;
        Path plugin = AccelPlugin.build(workDir);
        try (LocalControlPlane plane = LocalControlPlane.startForRealKubelet();
                GuestNode node = GuestNode.start(
                        plane,
                        GuestNodeOptions.of(TOPOLOGY, GuestNodeOptions.KubeletManagers.NONE)
                                .withImages(images.tars(IMAGES))
                                .withForwardedPorts(2)
                                // The journey is the build's last, longest step.
                                .withPriority(GuestKernel.Priority.RAISED)
                                // Debian's 6.12 LTS: cpuset partitions below the root (the policy asks for them).
                                .withKernel(GuestKernel.Line.LTS_6_12));
                ChartOperator operator = new ChartOperator(plane, workDir.resolve("operator"), "operator-host")) {
            try {
                return walk(new Journey(plane, node, operator), node, plugin, t0);
            } catch (AssertionError | RuntimeException e) {
                // The guest's run directory goes with it: its logs' last lines are all a CI log keeps of the cause.
                node.printLogTails(out, 30);
                throw e;
            }
        }
    }

    /** The journey's steps on the booted guest, in order. */
    private GuestReport walk(Journey journey, GuestNode node, Path plugin, long t0) throws Exception {
        Map<Integer, CpuList> numa = journey.machine();
        int metricsPort = node.forwardedPorts().get(0);
        Pod agent = journey.install(metricsPort, node.forwardedPorts().get(1));
        List<GuestRow> rows = journey.pods(numa);
        Partitions partitions = journey.partitions(List.of("trader", "analytics"));
        Map<Integer, Long> pages = journey.memory();
        Resize resize = journey.resize(numa);
        List<GuestRow> tooBig = journey.tooBig(numa);
        List<GuestRow> devices = journey.devices(numa, plugin);
        Optional<BestEffort> spread = Optional.empty();
        if (length == Length.FULL) {
            spread = Optional.of(journey.bestEffort(agent, numa));
        } else {
            out.printf("%n(the short journey ends here: -Dpodnuma.guestjourney=full, or scripts/demo, goes on with the"
                    + " policy changed to best-effort: the agent's roll and the spread budget)%n");
        }
        String metrics = PlainMetrics.fetch(metricsPort);
        AgentMetrics.excerpt(metrics).forEach(l -> out.println("  " + l));
        return new GuestReport(
                numa,
                rows,
                partitions,
                pages,
                resize,
                tooBig,
                devices,
                spread,
                journey.warnings(),
                journey.describe(),
                metrics,
                node.bootToReady(),
                Duration.ofNanos(System.nanoTime() - t0));
    }

    /** The steps on one booted guest. */
    private final class Journey {

        private final LocalControlPlane plane;
        private final GuestNode node;
        private final ChartOperator operator;

        Journey(LocalControlPlane plane, GuestNode node, ChartOperator operator) {
            this.plane = plane;
            this.node = node;
            this.operator = operator;
        }

        /** The node as the API server and the guest's kernel see it; its NUMA nodes' CPUs. */
        Map<Integer, CpuList> machine() {
            out.println(plane.kubectl("get", "nodes", "-o", "wide")
                    .assertSuccess()
                    .stdout()
                    .strip());
            out.printf(
                    "Ready %.1f s after the guest started; as its kernel says:%n",
                    node.bootToReady().toMillis() / 1e3);
            String facts = node.exec("""
                    echo "cgroup: $(awk '$2 == "/sys/fs/cgroup" {print $3}' /proc/mounts) at /sys/fs/cgroup, controllers $(cat /sys/fs/cgroup/cgroup.controllers)"
                    for n in /sys/devices/system/node/node[0-9]*; do
                        echo "${n##*/} $(cat $n/cpulist) $(sed -n 's/.*MemTotal: *//p' $n/meminfo)"
                    done
                    """, Duration.ofSeconds(60));
            Map<Integer, CpuList> numa = new TreeMap<>();
            for (String line : facts.lines().toList()) {
                if (line.startsWith("node")) {
                    String[] f = line.split("\\s+", 3);
                    String id = f[0].substring("node".length());
                    numa.put(Integer.parseInt(id), CpuList.parse(f[1]));
                    out.printf("  NUMA node %s: CPUs %s, memory %s%n", id, f[1], f[2]);
                } else {
                    out.println("  " + line);
                }
            }
            return numa;
        }

        /** {@code helm install}, the label, the policy; returns the agent pod once Ready. */
        Pod install(int metricsPort, int healthPort) throws Exception {
            section("helm install podnuma; kubectl apply -f crds/examples/" + POLICY + ".yaml");
            PodnumaChart chart = new PodnumaChart(plane, workDir.resolve("helm"));
            Duration install = chart.install(
                    PodnumaChart.guestNodeValues(
                            node, images.reference(PodnumaImage.NODE_AGENT), metricsPort, healthPort),
                    Duration.ofSeconds(170));
            out.printf(
                    "installed in %.1f s (the operator runs beside, on this machine, with the chart's settings)%n",
                    install.toMillis() / 1e3);
            operator.sync();
            out.println("$ kubectl label node " + node.nodeName() + " podnuma.io/pinning=" + POLICY);
            plane.kubectl("label", "node", node.nodeName(), "podnuma.io/pinning=" + POLICY, "--overwrite")
                    .assertSuccess();
            out.println(plane.kubectl(
                            "apply",
                            "-f",
                            root.resolve("crds/examples/" + POLICY + ".yaml").toString())
                    .assertSuccess()
                    .stdout()
                    .strip());
            long start = System.nanoTime();
            Pod agent = awaitAgent(Optional.empty());
            out.printf(
                    "the agent pod is Ready in the guest %.1f s after the policy%n", (System.nanoTime() - start) / 1e9);
            return agent;
        }

        List<GuestRow> pods(Map<Integer, CpuList> numa) throws InterruptedException {
            section("Pods: trader (budget 2 CPUs), analytics (budget 3 CPUs), web (Burstable)");
            plane.ensureNamespace(NS);
            Map<String, Pod> running = new LinkedHashMap<>();
            // trader and analytics cannot share a NUMA node (3 CPUs of node 0 are left beside the reserved one, 4 of
            // node 1); web comes last, on the shared pool the budgets left.
            for (Pod pod : List.of(
                    SamplePods.budgeted(node.nodeName(), "trader", 2),
                    SamplePods.budgeted(node.nodeName(), "analytics", 3),
                    SamplePods.burstable(node.nodeName(), "web"))) {
                running.put(pod.getMetadata().getName(), run(pod));
            }
            List<GuestRow> rows = rows(running, numa);
            table(rows);
            return rows;
        }

        /**
         * {@code cpuManager.partition: isolated}: each budget's pod cgroup as the kernel has it (an isolated partition of
         * the budget's CPUs, listed in the root's {@code cpuset.cpus.isolated}), a task of the node that tries to run
         * on one of them from outside, and the node's {@code Partitioned} condition.
         */
        Partitions partitions(List<String> budgets) throws InterruptedException {
            section("Isolated partitions: each budget's pod cgroup (cpuManager.partition: isolated)");
            StringBuilder script = new StringBuilder();
            for (String name : budgets) {
                Pod pod = node.awaitRunning(NS, name);
                String dir = "/sys/fs/cgroup/kubepods/pod" + pod.getMetadata().getUid();
                script.append("echo \"")
                        .append(name)
                        .append(" $(cat ")
                        .append(dir)
                        .append("/cpuset.cpus.partition)")
                        .append(" | $(cat ")
                        .append(dir)
                        .append("/cpuset.cpus.exclusive)\"\n");
            }
            script.append("echo \"isolated $(cat /sys/fs/cgroup/cpuset.cpus.isolated)\"\n");
            long t0 = System.nanoTime();
            Map<String, String> byPod = Waits.await(WAIT, () -> "every budget an isolated partition", () -> {
                Map<String, String> seen = new LinkedHashMap<>();
                String isolated = "";
                for (String line : node.exec(script.toString(), Duration.ofSeconds(30))
                        .lines()
                        .toList()) {
                    String[] f = line.split(" ", 2);
                    if (f[0].equals("isolated")) {
                        isolated = f.length > 1 ? f[1].strip() : "";
                    } else {
                        seen.put(f[0], f.length > 1 ? f[1].strip() : "");
                    }
                }
                seen.put("", isolated);
                return seen.entrySet().stream()
                                .filter(e -> !e.getKey().isEmpty())
                                .allMatch(e -> e.getValue().startsWith("isolated |"))
                        ? Optional.of(seen)
                        : Optional.empty();
            });
            took("the partitions", t0);
            CpuList isolated = CpuList.parse(byPod.remove(""));
            byPod.forEach((name, state) -> out.printf("  %s: cpuset.cpus.partition %s%n", name, state));
            out.println("  the root's cpuset.cpus.isolated: " + isolated);
            int cpu = isolated.ids().getFirst();
            String outside = node.exec("taskset -c " + cpu + " true 2>&1; echo \"exit $?\"", Duration.ofSeconds(30))
                    .strip();
            out.printf("$ taskset -c %d true   (a task of the node, outside the pods)%n  %s%n", cpu, outside);
            String condition = plane.kubectl(
                            "get",
                            "numanodestate",
                            node.nodeName(),
                            "-o",
                            "jsonpath={.status.conditions[?(@.type==\"Partitioned\")].status}"
                                    + " {.status.conditions[?(@.type==\"Partitioned\")].reason}")
                    .assertSuccess()
                    .stdout()
                    .strip();
            out.println("NumaNodeState condition Partitioned: " + condition);
            return new Partitions(byPod, isolated, outside, condition);
        }

        /**
         * Pod {@code name}'s cgroup once it is a partition of {@code cpus}: {@code cpuset.cpus.partition |
         * cpuset.cpus.exclusive}.
         */
        String partitionOn(String name, CpuList cpus) throws InterruptedException {
            String dir = "/sys/fs/cgroup/kubepods/pod"
                    + node.awaitRunning(NS, name).getMetadata().getUid();
            String script =
                    "echo \"$(cat " + dir + "/cpuset.cpus.partition) | $(cat " + dir + "/cpuset.cpus.exclusive)\"";
            return Waits.await(
                    WAIT,
                    () -> name + "'s pod cgroup a partition of " + cpus,
                    () -> Optional.of(node.exec(script, Duration.ofSeconds(30)).strip())
                            .filter(p -> p.endsWith("| " + cpus) && !p.contains("invalid")));
        }

        /**
         * A budget wider than a NUMA node, once analytics made room for it on the node (the kubelet admits a pod only
         * within the node's allocatable CPUs): refused under single-numa-node, it runs on the shared pool.
         */
        List<GuestRow> tooBig(Map<Integer, CpuList> numa) throws InterruptedException {
            section("A budget of " + WIDE + " CPUs, more than a NUMA node has: too-big (after analytics is deleted)");
            delete("analytics");
            Map<String, Pod> running = new LinkedHashMap<>();
            running.put("too-big", run(SamplePods.budgeted(node.nodeName(), "too-big", WIDE)));
            running.put("web", node.awaitRunning(NS, "web"));
            List<GuestRow> rows = rows(running, numa);
            table(rows);
            warnings().forEach(out::println);
            return rows;
        }

        /**
         * Two accelerators on NUMA node {@value #ACCEL_NODE}, offered by the test device plugin (registered with the
         * guest's kubelet, which hands them out and reports them on its PodResources socket): once too-big went, a
         * budget whose engine asks for one gets its CPUs and memory where the accelerator is; one whose CPUs do not
         * fit beside it there is refused under single-numa-node (the kubelet still gives it its accelerator).
         */
        List<GuestRow> devices(Map<Integer, CpuList> numa, Path plugin) throws InterruptedException {
            section("Devices: " + ACCELERATORS.devices().size() + " accelerators (" + AccelPlugin.ACCEL
                    + ") on NUMA node " + ACCEL_NODE + "; infer (2 CPUs + 1) and infer-wide (3 CPUs + 1), after too-big"
                    + " is deleted");
            delete("too-big");
            long t0 = System.nanoTime();
            node.runInBackground(plugin, ACCELERATORS.arguments(GuestNode.KUBELET_ROOT + "/device-plugins"));
            Waits.await(
                    WAIT,
                    () -> "the node's allocatable " + AccelPlugin.ACCEL + " to be "
                            + ACCELERATORS.devices().size(),
                    () -> Optional.ofNullable(plane.client()
                                    .nodes()
                                    .withName(node.nodeName())
                                    .get())
                            .map(n -> n.getStatus().getAllocatable().get(AccelPlugin.ACCEL))
                            .filter(q -> q.getAmount()
                                    .equals(Integer.toString(
                                            ACCELERATORS.devices().size()))));
            took("the accelerators allocatable", t0);
            out.println(plane.kubectl(
                            "get",
                            "node",
                            node.nodeName(),
                            "-o",
                            "custom-columns=NODE:.metadata.name,ACCELERATORS:.status.allocatable.example\\.com/accel")
                    .assertSuccess()
                    .stdout()
                    .strip());
            Map<String, Pod> running = new LinkedHashMap<>();
            running.put("trader", node.awaitRunning(NS, "trader"));
            for (Pod pod : List.of(
                    SamplePods.withDevices(
                            SamplePods.budgeted(node.nodeName(), "infer", 2), "engine", AccelPlugin.ACCEL, 1),
                    SamplePods.withDevices(
                            SamplePods.budgeted(node.nodeName(), "infer-wide", 3), "engine", AccelPlugin.ACCEL, 1))) {
                running.put(pod.getMetadata().getName(), run(pod));
            }
            List<GuestRow> rows = rows(running, numa);
            table(rows);
            warnings().stream().filter(w -> w.contains(" on infer")).forEach(out::println);
            return rows;
        }

        /** 64 MiB written by trader's engine: on which NUMA nodes the kernel put the pages. */
        Map<Integer, Long> memory() {
            section("Memory: trader/engine writes " + NUMA_MAPS_MIB + " MiB; /proc/self/numa_maps of the mapping");
            String maps = plane.kubectl(
                            "exec",
                            "-n",
                            NS,
                            "trader",
                            "-c",
                            "engine",
                            "--",
                            "/workload",
                            "numa-maps",
                            Integer.toString(NUMA_MAPS_MIB))
                    .assertSuccess()
                    .stdout();
            out.println(maps.strip());
            Map<Integer, Long> pages = pagesPerNode(maps);
            out.println("4 KiB pages per NUMA node: " + pages);
            return pages;
        }

        /**
         * trader's budget resized in place ({@code kubectl patch pod --subresource resize}): grown to all of its NUMA
         * node but the reserved CPU with the agent killed (SIGKILL) right after the patch, so the agent that comes back
         * finishes it from its checkpoint and the pod's spec; then one CPU more than the node has, which the kubelet
         * allocates and the agent refuses under single-numa-node (trader keeps its CPUs, with a Warning and its
         * {@code podnuma.io/ResizePending} condition); then back to its 2 CPUs.
         */
        Resize resize(Map<Integer, CpuList> numa) throws InterruptedException {
            Map<String, Pod> trader = new LinkedHashMap<>();
            trader.put("trader", node.awaitRunning(NS, "trader"));
            List<GuestRow> before = rows(trader, numa);
            CpuList held = before.get(0).row().cpus();
            int nodeId = Integer.parseInt(before.get(0).cpuNuma());
            int room = numa.get(nodeId).size() - (numa.get(nodeId).contains(0) ? 1 : 0);
            int grownBy = room - held.size();
            section("Resize in place: trader's budget " + held.size() + " → " + room + " (the agent killed right after"
                    + " the patch), → " + (room + 1) + " (more than NUMA node " + nodeId + " has), → " + held.size());

            Pod agent = awaitAgent(Optional.empty());
            int restarts = agentRestarts(agent);
            long t0 = System.nanoTime();
            patchCpu("trader", room);
            int killed = node.killContainer(
                    agent.getStatus().getContainerStatuses().getFirst().getContainerID());
            out.printf(
                    "killed the agent's %d processes (SIGKILL) %.1f s after the patch%n",
                    killed, (System.nanoTime() - t0) / 1e9);
            Pod back = Waits.await(
                    AGENT_READY,
                    () -> "the agent Ready again after its restart (now: "
                            + PodsTable.agentPodsNow(plane, node.nodeName(), POLICY) + ")",
                    () -> PodsTable.readyAgent(plane, node.nodeName(), POLICY)
                            .filter(p -> agentRestarts(p) > restarts));
            took("the agent back", t0);
            List<GuestRow> grown = awaitTraderOn(trader, numa, room);
            Duration grownAfter = Duration.ofNanos(System.nanoTime() - t0);
            table(grown);
            String grownPartition = partitionOn("trader", grown.get(0).row().cpus());
            out.println("trader's pod cgroup: cpuset.cpus.partition " + grownPartition);
            // Which agent resized: the one killed (it decided before it died: the one back found it in the checkpoint)
            // or the one back (its first full sync resized the pod to what the kubelet had allocated).
            String resizedBy = node
                    .lastLogLines(PodnumaChart.NAMESPACE, "resized: budget [0-9]+ .+ [0-9]+ CPUs in place: added")
                    .stream()
                    .map(l -> l.run() == restarts ? "the agent killed, before it died" : "the agent back, at its start")
                    .distinct()
                    .collect(Collectors.joining(" and "));
            out.println("resized by " + (resizedBy.isEmpty() ? "no agent that logged it" : resizedBy));

            patchCpu("trader", room + 1);
            long t1 = System.nanoTime();
            Optional<String> pending = Waits.await(
                    WAIT,
                    "trader's podnuma.io/ResizePending condition",
                    () -> resizeCondition("trader").map(Optional::of));
            took("trader's resize refused", t1);
            out.println("trader's condition: " + pending.orElseThrow());
            // The kubelet actuates the resize it allocated; a write of the runtime's may land on the containers
            // meanwhile, which the agent puts right: what is checked is what they settle on.
            List<GuestRow> refused = awaitTraderOn(trader, numa, room);

            patchCpu("trader", held.size());
            long t2 = System.nanoTime();
            List<GuestRow> shrunk = awaitTraderOn(trader, numa, held.size());
            Waits.await(
                    WAIT,
                    "trader's podnuma.io/ResizePending condition gone",
                    () -> resizeCondition("trader").isEmpty() ? Optional.of(true) : Optional.empty());
            took("trader back to " + held.size() + " CPUs", t2);
            table(shrunk);
            List<String> events = agentEvents("trader");
            events.forEach(e -> out.println("  " + e));
            Optional<ResizeSeries> series = RESIZES > 0 ? Optional.of(series(held.size())) : Optional.empty();
            return new Resize(
                    before,
                    grown,
                    refused,
                    shrunk,
                    grownBy,
                    events,
                    pending,
                    resizeCondition("trader"),
                    agentRestarts(back) - restarts,
                    resizedBy,
                    grownAfter,
                    grownPartition,
                    series);
        }

        /**
         * {@link #RESIZES} resizes of trader, {@code size} → {@code size + 1} and back, one after the other, each
         * waited for until the agent's NumaNodeState shows it: the agent's own time from the update taken to the
         * cpusets written (its log line for each), and the time from the patch returning to the NumaNodeState.
         */
        private ResizeSeries series(int size) throws InterruptedException {
            section(RESIZES + " timed resizes of trader: " + size + " ↔ " + (size + 1) + " CPUs");
            List<Long> toState = new ArrayList<>();
            for (int i = 0; i < RESIZES; i++) {
                int cpus = i % 2 == 0 ? size + 1 : size;
                patchCpu("trader", cpus);
                long t0 = System.nanoTime();
                Waits.await(
                        WAIT,
                        "trader's engine on " + cpus + " CPUs in the NumaNodeState",
                        () -> NodeStateReads.status(plane.client(), node.nodeName())
                                .flatMap(s -> NodeStateReads.container(s, NS, "trader", "engine"))
                                .map(c -> String.valueOf(c.get("cpus")))
                                .filter(c -> CpuList.parse(c).size() == cpus));
                toState.add(System.nanoTime() - t0);
            }
            List<double[]> lines = new ArrayList<>();
            Matcher m = RESIZE_WRITTEN.matcher(node.logTails(PodnumaChart.NAMESPACE, 400));
            while (m.find()) {
                lines.add(new double[] {
                    Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))
                });
            }
            List<double[]> last = lines.subList(Math.max(0, lines.size() - RESIZES), lines.size());
            ResizeSeries series = new ResizeSeries(
                    RESIZES,
                    last.stream().map(l -> l[0]).toList(),
                    last.stream().map(l -> l[1]).toList(),
                    last.stream().map(l -> l[2]).toList(),
                    toState.stream().map(n -> n / 1e6).toList());
            out.println(series.summary());
            return series;
        }

        private void patchCpu(String pod, int cpus) {
            String patch = "{\"spec\":{\"resources\":{\"requests\":{\"cpu\":\"" + cpus + "\"},\"limits\":{\"cpu\":\""
                    + cpus + "\"}}}}";
            out.println("$ kubectl patch pod -n " + NS + " " + pod + " --subresource resize --type=merge -p '" + patch
                    + "'");
            plane.kubectl("patch", "pod", "-n", NS, pod, "--subresource", "resize", "--type=merge", "-p", patch)
                    .assertSuccess();
        }

        /** trader's rows once each of its containers reports {@code cpus} CPUs. */
        private List<GuestRow> awaitTraderOn(Map<String, Pod> trader, Map<Integer, CpuList> numa, int cpus)
                throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                List<GuestRow> rows = rows(trader, numa);
                if (rows.stream().allMatch(r -> r.row().cpus().size() == cpus)) {
                    return rows;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "trader's containers not on " + cpus + " CPUs within " + WAIT + ": " + rows);
                }
                TimeUnit.MILLISECONDS.sleep(500);
            }
        }

        /** The pod's {@code podnuma.io/ResizePending} condition as {@code status reason: message}. */
        private Optional<String> resizeCondition(String pod) {
            Pod p = plane.client().pods().inNamespace(NS).withName(pod).get();
            return p.getStatus().getConditions().stream()
                    .filter(c -> c.getType().equals("podnuma.io/ResizePending"))
                    .map(c -> c.getStatus() + " " + c.getReason() + ": " + c.getMessage())
                    .findFirst();
        }

        /** The pod's Events from the agent, oldest first, as {@code Type Reason: message}. */
        private List<String> agentEvents(String pod) {
            return plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                    .filter(e -> pod.equals(e.getInvolvedObject().getName()))
                    .filter(e -> e.getSource() != null
                            && "podnuma-agent".equals(e.getSource().getComponent()))
                    .sorted(Comparator.comparing(e -> String.valueOf(e.getLastTimestamp())))
                    .map(e -> e.getType() + " " + e.getReason() + ": " + e.getMessage())
                    .toList();
        }

        private static int agentRestarts(Pod agent) {
            Integer n = agent.getStatus().getContainerStatuses().getFirst().getRestartCount();
            return n == null ? 0 : n;
        }

        /**
         * The policy changed to {@code best-effort} while the inference pods go: the agent rolls with the policy, trader keeps
         * its pins and a budget wider than a NUMA node spreads across both.
         */
        BestEffort bestEffort(Pod agent, Map<Integer, CpuList> numa) throws InterruptedException {
            section("best-effort: kubectl patch nrp " + POLICY + " (topologyManager.policy), a " + WIDE
                    + "-CPU budget again");
            // The inference pods go while the agent rolls, to make room for the wide budget: their sandboxes stop as
            // slowly as a new agent starts under emulation.
            requestDeletion("infer");
            requestDeletion("infer-wide");
            String patch = "{\"spec\":{\"topologyManager\":{\"policy\":\"best-effort\"}}}";
            out.println("$ kubectl patch nrp " + POLICY + " --type=merge -p '" + patch + "'");
            plane.kubectl("patch", "nrp", POLICY, "--type=merge", "-p", patch).assertSuccess();
            long roll = System.nanoTime();
            awaitAgent(Optional.of(agent.getMetadata().getUid()));
            Duration rolled = Duration.ofNanos(System.nanoTime() - roll);
            out.printf("the agent rolled with the policy in %.1f s%n", rolled.toMillis() / 1e3);
            out.println(plane.kubectl(
                            "get",
                            "events",
                            "-n",
                            PodnumaChart.NAMESPACE,
                            "--sort-by=.metadata.creationTimestamp",
                            "-o",
                            "custom-columns=TIME:.metadata.creationTimestamp,SOURCE:.source.component,OBJECT:.involvedObject.name,REASON:.reason")
                    .assertSuccess()
                    .stdout()
                    .strip());
            awaitGone("infer");
            awaitGone("infer-wide");
            Map<String, Pod> running = new LinkedHashMap<>();
            running.put("trader", node.awaitRunning(NS, "trader"));
            running.put("spread", run(SamplePods.budgeted(node.nodeName(), "spread", WIDE)));
            List<GuestRow> rows = rows(running, numa);
            table(rows);
            return new BestEffort(rows, rolled);
        }

        /** {@code kubectl delete pod}, and a wait until it is gone (a sandbox stops slowly under emulation). */
        private void delete(String pod) throws InterruptedException {
            requestDeletion(pod);
            awaitGone(pod);
        }

        private void requestDeletion(String pod) {
            out.println("$ kubectl delete pod -n " + NS + " " + pod);
            plane.kubectl("delete", "pod", "-n", NS, pod, "--wait=false").assertSuccess();
        }

        private void awaitGone(String pod) throws InterruptedException {
            long t0 = System.nanoTime();
            Waits.await(
                    WAIT,
                    pod + " gone",
                    () -> plane.client().pods().inNamespace(NS).withName(pod).get() == null
                            ? Optional.of(true)
                            : Optional.empty());
            took(pod + " gone", t0);
        }

        List<String> warnings() {
            return plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                    .filter(e -> "Warning".equals(e.getType()))
                    .map(e -> "Warning " + e.getReason() + " on "
                            + e.getInvolvedObject().getName() + ": " + e.getMessage())
                    .toList();
        }

        String describe() {
            section("kubectl get nrp -o wide; kubectl describe nrp " + POLICY);
            out.println(plane.kubectl("get", "nrp", "-o", "wide")
                    .assertSuccess()
                    .stdout()
                    .strip());
            String describe =
                    plane.kubectl("describe", "nrp", POLICY).assertSuccess().stdout();
            out.println(describe.strip());
            section("The agent's /metrics (excerpt)");
            return describe;
        }

        private Pod awaitAgent(Optional<String> notThisUid) throws InterruptedException {
            return Waits.await(
                    AGENT_READY,
                    () -> "the agent pod Ready on the guest node (now: "
                            + PodsTable.agentPodsNow(plane, node.nodeName(), POLICY) + "); its logs end:\n"
                            + node.logTails(PodnumaChart.NAMESPACE, 15),
                    () -> PodsTable.readyAgent(plane, node.nodeName(), POLICY)
                            .filter(p -> notThisUid
                                    .map(uid -> !uid.equals(p.getMetadata().getUid()))
                                    .orElse(true)));
        }

        /** Creates the pod, waits until it runs and the agent decided on it (an allocation or a Warning). */
        private Pod run(Pod pod) throws InterruptedException {
            String name = pod.getMetadata().getName();
            long t0 = System.nanoTime();
            plane.client()
                    .pods()
                    .inNamespace(NS)
                    .resource(WorkloadPods.ofImage(pod, images.reference(PodnumaImage.WORKLOAD)))
                    .create();
            Pod running = node.awaitRunning(NS, name);
            took(name + " Running", t0);
            if (!"Guaranteed".equals(running.getStatus().getQosClass())) {
                return running;
            }
            Waits.await(
                    WAIT,
                    "the agent's decision on " + name,
                    () -> NodeStateReads.status(plane.client(), node.nodeName())
                            .filter(s -> NodeStateReads.allocation(s, NS, name).isPresent()
                                    || warnings().stream().anyMatch(w -> w.contains(" on " + name + ": "))));
            took("the agent's decision on " + name, t0);
            return running;
        }

        /**
         * Each container as it reports itself (the last affinity its workload logged: it prints one whenever its
         * {@code Cpus_allowed_list} or {@code Mems_allowed_list} changes), its pool, and its cgroup's effective cpuset
         * in the guest; once what each container logged is what the kernel says its process may use (a pin lands
         * within the workload's next poll, a second).
         */
        private List<GuestRow> rows(Map<String, Pod> pods, Map<Integer, CpuList> numa) throws InterruptedException {
            List<Running> containers = new ArrayList<>();
            pods.forEach((pod, p) -> {
                List<ContainerStatus> statuses = new ArrayList<>(p.getStatus().getContainerStatuses());
                Optional.ofNullable(p.getStatus().getInitContainerStatuses()).ifPresent(statuses::addAll);
                statuses.stream()
                        .sorted(Comparator.comparing(ContainerStatus::getName))
                        .forEach(c -> containers.add(new Running(
                                pod,
                                p.getMetadata().getUid(),
                                c.getName(),
                                c.getContainerID().replaceFirst("^containerd://", ""))));
            });
            AtomicReference<String> lastSeen = new AtomicReference<>("nothing read yet");
            long t0 = System.nanoTime();
            List<GuestRow> settled = Waits.await(
                    WAIT, () -> "each container's logged affinity to be its process's: " + lastSeen.get(), () -> {
                        Map<String, WorkloadPods.Affinity> logged = new TreeMap<>();
                        for (GuestNode.LoggedLine l : node.lastLogLines(NS, "affinity cpus=")) {
                            // The newest run of a container is the one that runs.
                            WorkloadPods.affinityIn(l.line())
                                    .ifPresent(a -> logged.merge(
                                            l.podUid() + "/" + l.container() + "/" + String.format("%09d", l.run()),
                                            a,
                                            (x, y) -> y));
                        }
                        Map<String, GuestNode.ContainerCgroup> cgroups = node.containerCgroups();
                        Optional<Map<?, ?>> state = NodeStateReads.status(plane.client(), node.nodeName());
                        List<GuestRow> rows = new ArrayList<>();
                        for (Running c : containers) {
                            Optional<WorkloadPods.Affinity> said =
                                    newest(logged, c.podUid() + "/" + c.container() + "/");
                            GuestNode.ContainerCgroup cg = cgroups.get(c.id());
                            if (said.isEmpty()
                                    || cg == null
                                    || !said.get().cpus().equals(CpuList.parse(cg.cpusAllowed()))
                                    || !said.get().mems().equals(cg.memsAllowed())) {
                                lastSeen.set(c.pod() + "/" + c.container() + " logged "
                                        + said.map(Object::toString).orElse("no affinity") + ", its process "
                                        + (cg == null ? "not found under /sys/fs/cgroup/kubepods" : cg.toString()));
                                return Optional.empty();
                            }
                            String pool = state.map(s -> NodeStateReads.container(s, NS, c.pod(), c.container())
                                            .map(m -> String.valueOf(m.get("assignment")))
                                            .orElse("NodeShared"))
                                    .orElse(PodsTable.NOT_GOVERNED);
                            ContainerRow row = new ContainerRow(
                                    c.pod(),
                                    c.container(),
                                    said.get().cpus(),
                                    said.get().mems(),
                                    pool);
                            rows.add(new GuestRow(
                                    row, numaOf(row.cpus(), numa), cg.cpusEffective(), cg.memsEffective()));
                        }
                        return Optional.of(rows);
                    });
            took("each container's logged affinity its process's", t0);
            return settled;
        }
    }

    /** A container that runs: its pod, the pod's UID, its name and its ID in containerd. */
    private record Running(String pod, String podUid, String container, String id) {}

    /** The value of the greatest key that starts with {@code prefix}: keys end in the run number, zero-padded. */
    private static <V> Optional<V> newest(Map<String, V> sorted, String prefix) {
        return sorted.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .reduce((a, b) -> b)
                .map(Map.Entry::getValue);
    }

    /** The NUMA nodes {@code cpus} are on, as a list ("0", "0-1"). */
    static String numaOf(CpuList cpus, Map<Integer, CpuList> numa) {
        return CpuList.of(numa.entrySet().stream()
                        .filter(e -> e.getValue().ids().stream().anyMatch(cpus::contains))
                        .map(Map.Entry::getKey)
                        .toArray(Integer[]::new))
                .toString();
    }

    /** The {@code N<node>=<pages>} fields of the {@code numa_maps} line the workload printed. */
    static Map<Integer, Long> pagesPerNode(String output) {
        String line = output.lines()
                .filter(l -> l.startsWith("numa_maps "))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no numa_maps line in:\n" + output));
        Map<Integer, Long> pages = new TreeMap<>();
        Matcher m = NODE_PAGES.matcher(line);
        while (m.find()) {
            pages.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        }
        return pages;
    }

    private void table(List<GuestRow> rows) {
        String format = "%-10s %-10s %-6s %-9s %-5s %-11s %s%n";
        out.printf(format, "POD", "CONTAINER", "CPUS", "CPU NUMA", "MEMS", "POOL", "CGROUP CPUS / MEMS");
        rows.forEach(r -> out.printf(
                format,
                r.row().pod(),
                r.row().container(),
                r.row().cpus(),
                r.cpuNuma(),
                r.row().mems(),
                r.row().pool(),
                r.cgroupCpus() + " / " + r.cgroupMems()));
        out.println("(CPUS and MEMS as each container printed them from /proc/self/status, its log's last report;"
                + " CGROUP: cpuset.cpus.effective and cpuset.mems.effective of its cgroup v2 directory in the guest)");
    }

    /** Where the journey's minutes go, step by step (emulation makes some steps slow, a loaded host others). */
    private void took(String step, long sinceNanos) {
        out.printf("  (%s: %.1f s)%n", step, (System.nanoTime() - sinceNanos) / 1e9);
    }

    private void section(String title) {
        out.printf("%n== %s (at %.0f s) ==%n", title, (System.nanoTime() - started) / 1e9);
    }

    /** A container on the guest node: its row, the NUMA nodes of its CPUs, its cgroup's effective cpuset. */
    public record GuestRow(ContainerRow row, String cpuNuma, String cgroupCpus, String cgroupMems) {}

    /**
     * trader resized in place: its rows before, once grown (the agent killed right after the patch), while a growth
     * past its NUMA node was refused, and once shrunk back.
     *
     * @param grownBy CPUs added in the first step (all of trader's NUMA node but the reserved CPU)
     * @param events trader's Events from the agent ({@code Type Reason: message}), in order
     * @param pendingCondition trader's {@code podnuma.io/ResizePending} condition while refused ({@code status reason:
     *     message}), empty when it had none
     * @param conditionAfter the same once shrunk back; empty when it is gone
     * @param agentRestarts the agent container's restarts after the kill
     * @param resizedBy which agent resized trader: the one killed, or the one back (from their logs)
     * @param grownPartition trader's pod cgroup once grown: {@code cpuset.cpus.partition | cpuset.cpus.exclusive}
     */
    public record Resize(
            List<GuestRow> before,
            List<GuestRow> grown,
            List<GuestRow> refused,
            List<GuestRow> shrunk,
            int grownBy,
            List<String> events,
            Optional<String> pendingCondition,
            Optional<String> conditionAfter,
            int agentRestarts,
            String resizedBy,
            Duration grownAfterPatch,
            String grownPartition,
            Optional<ResizeSeries> series) {}

    /**
     * Timed resizes on the guest node.
     *
     * @param agentMillis the agent's time from each resized pod's update taken to its cpusets written (its log)
     * @param checkpointMillis of which the checkpoint's write
     * @param cgroupsMillis of which the cgroup writes
     * @param stateMillis the time from each patch returning to the agent's NumaNodeState showing it
     */
    public record ResizeSeries(
            int count,
            List<Double> agentMillis,
            List<Double> checkpointMillis,
            List<Double> cgroupsMillis,
            List<Double> stateMillis) {

        /** The figures, one line. */
        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "%d resizes (%d timed by the agent): update taken → cpusets written p50 %.2f ms, p99 %.2f ms,"
                            + " max %.2f ms (p50 of the checkpoint %.2f ms, of the cgroup writes %.2f ms); patch"
                            + " returned → NumaNodeState p50 %.0f ms, p99 %.0f ms",
                    count,
                    agentMillis.size(),
                    quantile(agentMillis, 0.5),
                    quantile(agentMillis, 0.99),
                    quantile(agentMillis, 1.0),
                    quantile(checkpointMillis, 0.5),
                    quantile(cgroupsMillis, 0.5),
                    quantile(stateMillis, 0.5),
                    quantile(stateMillis, 0.99));
        }

        /** The nearest-rank quantile {@code q} of {@code values}; NaN for none. */
        static double quantile(List<Double> values, double q) {
            if (values.isEmpty()) {
                return Double.NaN;
            }
            List<Double> sorted = values.stream().sorted().toList();
            int rank = (int) Math.ceil(q * sorted.size());
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
        }
    }

    /**
     * The budgets' partitions as the guest's kernel has them.
     *
     * @param byPod per budget, its pod cgroup's {@code cpuset.cpus.partition | cpuset.cpus.exclusive}
     * @param isolated the root's {@code cpuset.cpus.isolated}
     * @param outside what {@code taskset} onto an isolated CPU answered from outside the pods (its last line: the exit)
     * @param condition the NumaNodeState's {@code Partitioned} condition: {@code status reason}
     */
    public record Partitions(Map<String, String> byPod, CpuList isolated, String outside, String condition) {}

    /** After the change to best-effort: trader and the spread budget, and how long the agent's roll took. */
    public record BestEffort(List<GuestRow> rows, Duration roll) {}

    /** What the journey saw on the guest node, for its test. */
    public record GuestReport(
            Map<Integer, CpuList> numa,
            List<GuestRow> rows,
            Partitions partitions,
            Map<Integer, Long> traderPages,
            Resize resize,
            List<GuestRow> tooBig,
            List<GuestRow> devices,
            Optional<BestEffort> bestEffort,
            List<String> warnings,
            String describe,
            String metrics,
            Duration bootToReady,
            Duration whole) {

        /** The rows of pod {@code name} under single-numa-node. */
        public List<GuestRow> pod(String name) {
            return rows.stream().filter(r -> r.row().pod().equals(name)).toList();
        }

        /** The rows of pod {@code name} once the accelerators were there. */
        public List<GuestRow> withDevices(String name) {
            return devices.stream().filter(r -> r.row().pod().equals(name)).toList();
        }

        /** The rows of pod {@code name} after the change to best-effort (none in the short journey). */
        public List<GuestRow> afterRoll(String name) {
            return bestEffort
                    .map(b -> b.rows().stream()
                            .filter(r -> r.row().pod().equals(name))
                            .toList())
                    .orElse(List.of());
        }
    }
}
