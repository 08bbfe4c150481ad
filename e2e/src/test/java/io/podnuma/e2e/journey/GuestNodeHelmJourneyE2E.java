package io.podnuma.e2e.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.GuestNode;
import io.podnuma.controlplane.GuestNodeOptions;
import io.podnuma.controlplane.GuestTopology;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.images.PodnumaImage;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helm journey on a multi-NUMA cgroup v2 node ({@link GuestNode}: two NUMA nodes of 2 cores × 2 threads, the
 * kubelet's own managers off, as podnuma needs them): {@code helm install}, a policy with {@code single-numa-node} at
 * pod scope and the memory manager {@code Static}; the agent DaemonSet's pod runs in the guest, on its sysfs and
 * cgroups. A pod with a budget gets CPUs and memory of one NUMA node, as its containers report from inside
 * ({@code Cpus_allowed_list}, {@code Mems_allowed_list}) and as the kernel's {@code numa_maps} shows for memory it
 * allocates; a pod too big for one NUMA node is refused (Warning, shared pool); under {@code best-effort} the same
 * budget's CPUs are pinned across both nodes.
 *
 * <p>The operator runs as a process of this machine with the settings the chart rendered ({@link ChartOperator}):
 * a second JVM under software emulation would only slow the journey; what must run on the node runs there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuestNodeHelmJourneyE2E {

    private static final String POLICY = "numa-journey";
    private static final String LABEL = "podnuma.io/pinning";
    private static final String NS = "journey";
    /** An agent JVM starts in about a minute under emulation; a roll is a stop and a start. */
    private static final Duration AGENT_READY =
            Duration.ofSeconds(Long.getLong("podnuma.guestjourney.agentSeconds", 420));

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final Duration HELM = Duration.ofSeconds(170);
    private static final Pattern NODE_PAGES = Pattern.compile(" N(\\d+)=(\\d+)");

    @TempDir
    Path workDir;

    private final int metricsPort = FreePorts.next();
    private final int healthPort = FreePorts.next();
    private final GuestTopology topology = GuestTopology.TWO_NODES;
    private LocalControlPlane plane;
    private GuestNode node;
    private ChartOperator operator;

    @BeforeAll
    void boot() {
        List<Path> tars = RealNodeAgent.tars(List.of(PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD));
        Optional<String> missing = RealNodeAgent.whyMissing(tars);
        if (missing.isPresent()) {
            System.out.println("GuestNodeHelmJourneyE2E skipped: " + missing.get());
            Assumptions.abort(missing.get());
        }
        try {
            plane = LocalControlPlane.startForRealKubelet();
            node = GuestNode.start(
                    plane,
                    GuestNodeOptions.of(topology, GuestNodeOptions.KubeletManagers.NONE)
                            .withImages(tars)
                            .withForwardedPorts(List.of(metricsPort, healthPort)));
        } catch (ControlPlaneUnavailableException e) {
            System.out.println("GuestNodeHelmJourneyE2E skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (node != null) {
            AgentPods.current(plane.client(), node.nodeName(), POLICY)
                    .ifPresent(p -> System.err.println("[GuestNodeHelmJourneyE2E] the agent's log ends:\n"
                            + plane.kubectl(
                                            "logs",
                                            "-n",
                                            PodnumaChart.NAMESPACE,
                                            p.getMetadata().getName(),
                                            "--tail=40")
                                    .output()));
        }
        if (operator != null) {
            operator.close();
        }
        if (node != null) {
            node.close();
        }
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void installPinCpusAndMemoryOnOneNumaNodeRefuseTooBigThenSpreadItUnderBestEffort() throws Exception {
        Map<String, String> timings = new LinkedHashMap<>();
        timings.put("guest start → node Ready", seconds(node.bootToReady()));
        long start = System.nanoTime();
        PodnumaChart chart = new PodnumaChart(plane, workDir.resolve("helm"));
        timings.put(
                "helm install --wait",
                seconds(chart.install(
                        PodnumaChart.guestNodeValues(
                                node, RealNodeAgent.reference(PodnumaImage.NODE_AGENT), metricsPort, healthPort),
                        HELM)));
        // The operator's stand-in pod names no real node: on the guest's kubelet it would try to start.
        operator = new ChartOperator(plane, workDir.resolve("operator"), "operator-host");
        operator.sync();
        plane.kubectl("label", "node", node.nodeName(), LABEL + "=numa", "--overwrite")
                .assertSuccess();
        applyPolicy("single-numa-node");
        Pod agent = awaitAgent(Optional.empty());
        timings.put("install → agent Ready", seconds(Duration.ofNanos(System.nanoTime() - start)));

        // A budget of two CPUs and 256Mi, shared by the engine and its sidecar: one NUMA node's CPUs and memory.
        plane.ensureNamespace(NS);
        Map<String, WorkloadPods.Affinity> trader = run(SamplePods.budgeted(node.nodeName(), "trader", 2));
        timings.put("install → first pod pinned", seconds(Duration.ofNanos(System.nanoTime() - start)));
        WorkloadPods.Affinity engine = trader.get("engine");
        int numa = numaNodeOf(engine.cpus());
        assertThat(engine.cpus().size()).as("the budget's CPUs").isEqualTo(2);
        assertThat(engine.cpus().contains(0)).as("CPU 0 is reserved").isFalse();
        assertThat(engine.mems()).as("memory on the CPUs' NUMA node").isEqualTo(Integer.toString(numa));
        assertThat(trader.get("proxy")).as("the sidecar shares the budget").isEqualTo(engine);
        assertCgroupsSay("trader", engine);

        // Memory the engine allocates lands on its node, page by page.
        String maps = plane.kubectl("exec", "-n", NS, "trader", "-c", "engine", "--", "/workload", "numa-maps", "64")
                .assertSuccess()
                .stdout();
        Map<Integer, Long> pages = pagesPerNode(maps);
        System.out.println(
                "[GuestNodeHelmJourneyE2E] 64 MiB written by trader/engine: " + pages + " pages per NUMA node");
        assertThat(pages).as("numa_maps of the 64 MiB: %s", maps).containsOnlyKeys(numa);
        assertThat(pages.get(numa)).isGreaterThanOrEqualTo(64L * 1024 / 4);

        // Five CPUs: more than a NUMA node has. Refused under single-numa-node: a Warning, the node's shared pool.
        int wide = topology.cpusPerNode() + 1;
        Map<String, WorkloadPods.Affinity> tooBig = run(SamplePods.budgeted(node.nodeName(), "too-big", wide));
        String warning = Waits.await(
                WAIT,
                "a Warning Event on too-big",
                () -> plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                        .filter(e -> "too-big".equals(e.getInvolvedObject().getName()) && "Warning".equals(e.getType()))
                        .map(e -> e.getReason() + ": " + e.getMessage())
                        .findFirst());
        assertThat(warning).contains("it runs in the node's shared pool");
        Map<?, ?> state = NodeStateReads.status(plane.client(), node.nodeName()).orElseThrow();
        assertThat(NodeStateReads.allocation(state, NS, "too-big"))
                .as("too-big refused")
                .isEmpty();
        assertThat(tooBig.get("engine").cpus().ids())
                .as("too-big on the shared pool")
                .doesNotContainAnyElementsOf(engine.cpus().ids());
        plane.kubectl("delete", "pod", "-n", NS, "too-big", "--wait=true", "--timeout=120s")
                .assertSuccess();

        // best-effort: the agents roll with the policy, trader keeps its pins, and the same budget spans both nodes.
        long roll = System.nanoTime();
        applyPolicy("best-effort");
        awaitAgent(Optional.of(agent.getMetadata().getUid()));
        timings.put("policy change → agent Ready again", seconds(Duration.ofNanos(System.nanoTime() - roll)));
        assertThat(WorkloadPods.reported(plane, NS, "trader", "engine"))
                .as("trader after the roll")
                .isEqualTo(engine);
        Map<String, WorkloadPods.Affinity> spread = run(SamplePods.budgeted(node.nodeName(), "spread", wide));
        WorkloadPods.Affinity spreadEngine = spread.get("engine");
        assertThat(spreadEngine.cpus().size()).isEqualTo(wide);
        assertThat(spreadEngine.cpus().ids().stream()
                        .map(c -> c / topology.cpusPerNode())
                        .distinct()
                        .count())
                .as("CPUs %s on both NUMA nodes", spreadEngine.cpus())
                .isEqualTo(2);
        assertThat(spreadEngine.cpus().ids())
                .doesNotContainAnyElementsOf(engine.cpus().ids());
        // Its memory fits one node: the merged hint best-effort keeps is the narrowest, so the memory manager pins the
        // budget's memory to one of the nodes its CPUs are on (as the kubelet does).
        assertThat(spreadEngine.mems())
                .as("memory of the narrowest merged hint")
                .isIn("0", "1");
        assertCgroupsSay("spread", spreadEngine);

        // What the user reads.
        String describe =
                plane.kubectl("describe", "nrp", POLICY).assertSuccess().stdout();
        assertThat(describe).contains("Name:         " + POLICY).containsPattern("Type:\\s+Ready\\s");
        String metrics = RealNodeAgent.metricsAt(metricsPort);
        assertThat(PrometheusText.sampleValue(metrics, "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                .as("CPUs held exclusively: trader's 2 and spread's %d", wide)
                .isEqualTo(2.0 + wide);
        timings.put("whole journey", seconds(Duration.ofNanos(System.nanoTime() - start)));
        System.out.println("[GuestNodeHelmJourneyE2E] trader " + trader + ", too-big " + tooBig + ", spread " + spread);
        timings.forEach((what, s) -> System.out.println("[GuestNodeHelmJourneyE2E] " + what + ": " + s));
    }

    private void applyPolicy(String topologyPolicy) {
        plane.kubectlWithStdin("""
                        apiVersion: podnuma.io/v1alpha1
                        kind: NumaResourcePolicy
                        metadata:
                          name: %s
                        spec:
                          nodeSelector:
                            matchLabels:
                              %s: numa
                          topologyManager:
                            policy: %s
                            scope: pod
                          cpuManager:
                            policy: static
                            reservedCpus: "0"
                          memoryManager:
                            policy: Static
                            reservedMemory:
                            - numaNode: 0
                              limits:
                                memory: 128Mi
                          podLevelResources:
                            enabled: true
                        """.formatted(POLICY, LABEL, topologyPolicy), "apply", "-f", "-")
                .assertSuccess();
    }

    private Pod awaitAgent(Optional<String> notThisUid) throws InterruptedException {
        Waits.await(
                WAIT,
                "the node labelled " + AgentRender.POLICY_LABEL + "=" + POLICY,
                () -> Optional.ofNullable(plane.client()
                                .nodes()
                                .withName(node.nodeName())
                                .get()
                                .getMetadata()
                                .getLabels()
                                .get(AgentRender.POLICY_LABEL))
                        .filter(POLICY::equals));
        return AgentPods.awaitReady(
                plane.client(),
                node.nodeName(),
                POLICY,
                notThisUid,
                AGENT_READY,
                () -> plane.kubectl("get", "pods,ds", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                        .output());
    }

    /** Runs the pod's containers on the workload image; once pinned (its NumaNodeState entry or a Warning), what each reports. */
    private Map<String, WorkloadPods.Affinity> run(Pod pod) throws InterruptedException {
        String name = pod.getMetadata().getName();
        plane.client()
                .pods()
                .inNamespace(NS)
                .resource(WorkloadPods.ofImage(pod, RealNodeAgent.workloadImage()))
                .create();
        Pod running = node.awaitRunning(NS, name);
        Waits.await(
                WAIT,
                "the agent's decision on " + name,
                () -> NodeStateReads.status(plane.client(), node.nodeName())
                        .filter(s -> NodeStateReads.allocation(s, NS, name).isPresent()
                                || plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                                        .anyMatch(e -> name.equals(
                                                        e.getInvolvedObject().getName())
                                                && "Warning".equals(e.getType()))));
        Map<String, WorkloadPods.Affinity> out = new TreeMap<>();
        List<String> containers = new ArrayList<>();
        running.getSpec().getContainers().forEach(c -> containers.add(c.getName()));
        running.getSpec().getInitContainers().forEach(c -> containers.add(c.getName()));
        for (String c : containers) {
            out.put(c, WorkloadPods.reported(plane, NS, name, c));
        }
        return out;
    }

    /**
     * The cgroup v2 cpuset the agent wrote for each container of pod {@code name}, as the guest's kernel has it in
     * force ({@code cpuset.cpus.effective}, {@code cpuset.mems.effective}): what the containers report.
     */
    private void assertCgroupsSay(String name, WorkloadPods.Affinity reported) {
        Pod pod = node.awaitRunning(NS, name);
        Map<String, GuestNode.ContainerCgroup> cgroups = node.containerCgroups();
        List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getContainerStatuses());
        statuses.addAll(pod.getStatus().getInitContainerStatuses());
        assertThat(statuses).hasSize(2);
        for (ContainerStatus s : statuses) {
            GuestNode.ContainerCgroup cg = cgroups.get(s.getContainerID().replaceFirst("^containerd://", ""));
            assertThat(cg)
                    .as("the cgroup of %s/%s in %s", name, s.getName(), cgroups)
                    .isNotNull();
            assertThat(CpuList.parse(cg.cpusEffective()))
                    .as("%s/%s cpuset.cpus.effective", name, s.getName())
                    .isEqualTo(reported.cpus());
            assertThat(cg.memsEffective())
                    .as("%s/%s cpuset.mems.effective", name, s.getName())
                    .isEqualTo(reported.mems());
        }
        System.out.println("[GuestNodeHelmJourneyE2E] " + name + "'s cgroups: cpuset.cpus.effective " + reported.cpus()
                + ", cpuset.mems.effective " + reported.mems());
    }

    private int numaNodeOf(CpuList cpus) {
        int first = cpus.ids().first() / topology.cpusPerNode();
        assertThat(cpus.ids().last() / topology.cpusPerNode())
                .as("CPUs %s on one NUMA node", cpus)
                .isEqualTo(first);
        return first;
    }

    private static Map<Integer, Long> pagesPerNode(String output) {
        String line = output.lines()
                .filter(l -> l.startsWith("numa_maps "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no numa_maps line in:\n" + output));
        Map<Integer, Long> pages = new TreeMap<>();
        Matcher m = NODE_PAGES.matcher(line);
        while (m.find()) {
            pages.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        }
        return pages;
    }

    private static String seconds(Duration d) {
        return String.format("%.1f s", d.toMillis() / 1e3);
    }
}
