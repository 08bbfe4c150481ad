package io.podnuma.demo.journey;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.GuestNode;
import io.podnuma.controlplane.GuestNodeOptions;
import io.podnuma.controlplane.GuestTopology;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.images.PodnumaImage;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The journey's pods on the machines podnuma is for: a worker node in a QEMU guest ({@link GuestNode}: two NUMA nodes
 * of 2 cores × 2 threads, cgroup v2 only, the same kubelet and containerd as the real node) registered to a control
 * plane of its own. {@code helm install}, the {@code numa-aligned} example policy (a pod budget's CPUs and memory on
 * one NUMA node), two budgets that end up on different NUMA nodes, a Burstable pod and a budget bigger than a NUMA node
 * (refused, shared pool); a table of what each container reports from inside beside what its cgroup's
 * {@code cpuset.cpus.effective} and {@code cpuset.mems.effective} say in the guest.
 *
 * <p>The operator runs as a process of this machine with the settings the chart rendered ({@link ChartOperator}): a
 * second JVM under software emulation would only slow the demo; the agent runs as its DaemonSet's pod in the guest.
 */
public final class GuestNodeDemo {

    static final String POLICY = "numa-aligned";
    private static final String NS = "demo";
    private static final GuestTopology TOPOLOGY = GuestTopology.TWO_NODES;
    private static final List<PodnumaImage> IMAGES = List.of(PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);
    /** An agent JVM starts in about a minute under software emulation. */
    private static final Duration AGENT_READY = Duration.ofSeconds(420);

    private static final Duration WAIT = Duration.ofSeconds(180);

    private final Path root;
    private final Path workDir;
    private final DemoImages images;
    private final PrintStream out;

    public GuestNodeDemo(Path root, Path workDir, String tag, PrintStream out) {
        this.root = root;
        this.workDir = workDir;
        this.images = new DemoImages(root, tag);
        this.out = out;
    }

    /**
     * Why the demo cannot even try (the images are not built); that a guest cannot boot here shows as
     * {@link io.podnuma.controlplane.ControlPlaneUnavailableException} from {@link #run}.
     */
    public Optional<String> unavailable() {
        return images.missing(IMAGES);
    }

    /** Boots the guest node, runs the pods, powers the guest off; returns what its containers reported. */
    public GuestReport run() throws Exception {
        long t0 = System.nanoTime();
        List<Integer> ports = List.of(FreePorts.next(), FreePorts.next());
        try (LocalControlPlane plane = LocalControlPlane.startForRealKubelet();
                GuestNode node = GuestNode.start(
                        plane,
                        GuestNodeOptions.of(TOPOLOGY, GuestNodeOptions.KubeletManagers.NONE)
                                .withImages(images.tars(IMAGES))
                                .withForwardedPorts(ports));
                ChartOperator operator = new ChartOperator(plane, workDir.resolve("operator"), "operator-host")) {
            Map<Integer, CpuList> numa = machine(plane, node);
            List<GuestRow> rows = journey(plane, node, operator, ports, numa);
            return new GuestReport(numa, rows, node.bootToReady(), Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    private Map<Integer, CpuList> machine(LocalControlPlane plane, GuestNode node) {
        out.println(plane.kubectl("get", "nodes", "-o", "wide")
                .assertSuccess()
                .stdout()
                .strip());
        out.printf(
                "Ready %.1f s after the guest started; as its kernel says:%n",
                node.bootToReady().toMillis() / 1e3);
        String facts = node.exec("""
                echo "cgroup filesystem: $(stat -fc %T /sys/fs/cgroup) (controllers: $(cat /sys/fs/cgroup/cgroup.controllers))"
                for n in /sys/devices/system/node/node[0-9]*; do
                    echo "${n##*/} $(cat $n/cpulist) $(sed -n 's/.*MemTotal: *//p' $n/meminfo)"
                done
                """, Duration.ofSeconds(60));
        Map<Integer, CpuList> numa = new TreeMap<>();
        for (String line : facts.lines().toList()) {
            if (line.startsWith("node")) {
                String[] f = line.split("\\s+", 3);
                numa.put(Integer.parseInt(f[0].substring("node".length())), CpuList.parse(f[1]));
                out.printf("  NUMA %s: CPUs %s, memory %s%n", f[0].substring("node".length()), f[1], f[2]);
            } else {
                out.println("  " + line);
            }
        }
        return numa;
    }

    private List<GuestRow> journey(
            LocalControlPlane plane,
            GuestNode node,
            ChartOperator operator,
            List<Integer> ports,
            Map<Integer, CpuList> numa)
            throws Exception {
        section("helm install podnuma on the guest node; kubectl apply -f crds/examples/" + POLICY + ".yaml");
        PodnumaChart chart = new PodnumaChart(plane, workDir.resolve("helm"));
        Duration install = chart.install(
                PodnumaChart.guestNodeValues(
                        node, images.reference(PodnumaImage.NODE_AGENT), ports.get(0), ports.get(1)),
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
        long agentStart = System.nanoTime();
        Waits.await(
                AGENT_READY,
                "the agent pod Ready on the guest node",
                () -> PodsTable.readyAgent(plane, node.nodeName(), POLICY));
        out.printf(
                "the agent pod is Ready in the guest %.1f s after the policy%n",
                (System.nanoTime() - agentStart) / 1e9);

        section("Pods: trader (budget 2 CPUs), analytics (budget 3 CPUs), too-big (budget 5 CPUs), web (Burstable)");
        plane.ensureNamespace(NS);
        Map<String, Pod> running = new LinkedHashMap<>();
        // trader and analytics cannot share a NUMA node (3 CPUs of node 0 are left beside the reserved one, 4 of node
        // 1); too-big fits none; web comes last, on the shared pool the budgets left.
        for (Pod pod : List.of(
                SamplePods.budgeted(node.nodeName(), "trader", 2),
                SamplePods.budgeted(node.nodeName(), "analytics", 3),
                SamplePods.budgeted(node.nodeName(), "too-big", TOPOLOGY.cpusPerNode() + 1),
                SamplePods.burstable(node.nodeName(), "web"))) {
            running.put(pod.getMetadata().getName(), run(plane, node, pod));
        }
        List<GuestRow> rows = rows(plane, node, running, numa);
        table(rows);
        plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType()))
                .forEach(e -> out.printf(
                        "Warning %s on %s: %s%n",
                        e.getReason(), e.getInvolvedObject().getName(), e.getMessage()));
        out.println();
        out.println(plane.kubectl("get", "nrp", "-o", "wide")
                .assertSuccess()
                .stdout()
                .strip());
        return rows;
    }

    /** Creates the pod, waits until it runs and the agent decided on it (an allocation or a Warning). */
    private Pod run(LocalControlPlane plane, GuestNode node, Pod pod) throws InterruptedException {
        String name = pod.getMetadata().getName();
        plane.client()
                .pods()
                .inNamespace(NS)
                .resource(WorkloadPods.ofImage(pod, images.reference(PodnumaImage.WORKLOAD)))
                .create();
        Pod running = node.awaitRunning(NS, name);
        if (!"Guaranteed".equals(running.getStatus().getQosClass())) {
            return running;
        }
        Waits.await(
                WAIT,
                "the agent's decision on " + name,
                () -> NodeStateReads.status(plane.client(), node.nodeName())
                        .filter(s -> NodeStateReads.allocation(s, NS, name).isPresent()
                                || plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                                        .anyMatch(e -> name.equals(
                                                        e.getInvolvedObject().getName())
                                                && "Warning".equals(e.getType()))));
        return running;
    }

    /** Each container as it reports itself, its pool, and its cgroup's effective cpuset in the guest. */
    private List<GuestRow> rows(
            LocalControlPlane plane, GuestNode node, Map<String, Pod> pods, Map<Integer, CpuList> numa) {
        Map<String, List<String>> names = new LinkedHashMap<>();
        Map<String, String> ids = new TreeMap<>();
        pods.forEach((pod, p) -> {
            List<ContainerStatus> statuses = new ArrayList<>(p.getStatus().getContainerStatuses());
            Optional.ofNullable(p.getStatus().getInitContainerStatuses()).ifPresent(statuses::addAll);
            names.put(
                    pod,
                    statuses.stream().map(ContainerStatus::getName).sorted().toList());
            statuses.forEach(
                    s -> ids.put(pod + "/" + s.getName(), s.getContainerID().replaceFirst("^containerd://", "")));
        });
        List<ContainerRow> reported = PodsTable.rows(plane, node.nodeName(), NS, names);
        Map<String, GuestNode.ContainerCgroup> cgroups = node.containerCgroups();
        return reported.stream()
                .map(r -> {
                    GuestNode.ContainerCgroup cg = cgroups.get(ids.get(r.pod() + "/" + r.container()));
                    if (cg == null) {
                        throw new IllegalStateException("no cgroup with a process for " + r.pod() + "/" + r.container()
                                + " under /sys/fs/cgroup/kubepods in the guest");
                    }
                    return new GuestRow(r, numaOf(r.cpus(), numa), cg.cpusEffective(), cg.memsEffective());
                })
                .toList();
    }

    /** The NUMA nodes {@code cpus} are on, as a CPU list ("0", "0-1"). */
    static String numaOf(CpuList cpus, Map<Integer, CpuList> numa) {
        return CpuList.of(numa.entrySet().stream()
                        .filter(e -> e.getValue().ids().stream().anyMatch(cpus::contains))
                        .map(Map.Entry::getKey)
                        .toArray(Integer[]::new))
                .toString();
    }

    private void table(List<GuestRow> rows) {
        String format = "%-10s %-10s %-6s %-9s %-5s %-11s %-22s%n";
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
        out.println("(CPUS and MEMS as each container reads /proc/self/status: kubectl exec ... /workload report;"
                + " CGROUP: cpuset.cpus.effective and cpuset.mems.effective of its cgroup v2 directory in the guest)");
    }

    private void section(String title) {
        out.printf("%n== %s ==%n", title);
    }

    /** A container on the guest node: its row, the NUMA nodes of its CPUs, its cgroup's effective cpuset. */
    public record GuestRow(ContainerRow row, String cpuNuma, String cgroupCpus, String cgroupMems) {}

    /** What the demo saw on the guest node, for its test. */
    public record GuestReport(Map<Integer, CpuList> numa, List<GuestRow> rows, Duration bootToReady, Duration whole) {

        public List<GuestRow> pod(String name) {
            return rows.stream().filter(r -> r.row().pod().equals(name)).toList();
        }
    }
}
