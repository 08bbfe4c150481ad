package io.podnuma.demo.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.HostSnapshot;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.PrometheusApi;
import io.podnuma.controlplane.PrometheusServer;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.demo.Playground;
import io.podnuma.demo.StopSignal;
import io.podnuma.images.PodnumaImage;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.metrics.PlainMetrics;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PodnumaScrapeConfigs;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The user journey on a real worker node of this machine (kubelet v1.37.2 + containerd v2.4.2, registered to a local
 * control plane): {@code helm install} of the chart with the images imported into the node, the quickstart policy, pods
 * whose containers report where they may run, {@code kubectl describe nrp}, the agent's metrics and a Prometheus query,
 * then {@code helm uninstall} and every container back on every CPU.
 */
public final class HelmJourneyDemo {

    private static final String POLICY = "quickstart";
    private static final String NS = "demo";
    /** Where the playground's example pod goes. */
    private static final String PLAYGROUND_NS = "playground";

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<PodnumaImage> IMAGES =
            List.of(PodnumaImage.OPERATOR, PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);

    private final Path root;
    private final Path workDir;
    private final DemoImages images;
    private final PrintStream out;

    public HelmJourneyDemo(Path root, Path workDir, String tag, PrintStream out) {
        this.root = root;
        this.workDir = workDir;
        this.images = new DemoImages(root, tag);
        this.out = out;
    }

    /** Why this machine cannot run it: not root, no cgroup v1 cpusets, no images built. */
    public Optional<String> unavailable() {
        Optional<String> why = RealNode.whyUnavailable();
        if (why.isPresent()) {
            return why;
        }
        return images.missing(IMAGES);
    }

    /** Runs the journey; returns the containers' CPUs while pinned and after the uninstall. */
    public JourneyReport run() throws Exception {
        section("A real worker node on this machine");
        try (RealNode node = RealNode.startWithPlane(RealNodeOptions.defaults().withImages(images.tars(IMAGES)))) {
            LocalControlPlane plane = node.plane();
            out.println(plane.kubectl("get", "nodes", "-o", "wide")
                    .assertSuccess()
                    .stdout()
                    .strip());
            return journey(plane, node, false);
        }
    }

    /**
     * The journey up to the metrics and Prometheus, then a playground: the node, the chart and the quickstart policy
     * stay up (the journey's pods are deleted, so their CPUs are the user's) until {@code stop} is requested; then the
     * node is closed (every host change undone, its control plane stopped) and the host checked. Returns what the
     * node left on the host: empty when it is clean.
     */
    public List<String> runAndKeep(Supplier<StopSignal> stop) throws Exception {
        section("A real worker node on this machine");
        HostSnapshot before = HostSnapshot.take();
        Path runDir;
        long stopped;
        try (RealNode node = RealNode.startWithPlane(RealNodeOptions.defaults().withImages(images.tars(IMAGES)))) {
            runDir = node.runDir();
            LocalControlPlane plane = node.plane();
            out.println(plane.kubectl("get", "nodes", "-o", "wide")
                    .assertSuccess()
                    .stdout()
                    .strip());
            journey(plane, node, true);
            playground(plane, node).hold(out, stop.get());
            stopped = System.nanoTime();
        }
        List<String> left = HostSnapshot.take().leftoversOf(runDir, before);
        out.printf(
                "torn down in %.1f s: the node's processes stopped, its containers, mounts, cgroups, bridge and sysctls"
                        + " undone, its control plane stopped%n",
                (System.nanoTime() - stopped) / 1e9);
        out.println(
                left.isEmpty()
                        ? "host check: nothing of the node is left (no process, mount, kubepods cgroup, bridge, sysctl or path)"
                        : "host check: LEFT ON THE HOST: " + left);
        return left;
    }

    /** Frees the journey's CPUs and writes an example pod for the user; what to try and where. */
    private Playground playground(LocalControlPlane plane, RealNode node) throws Exception {
        out.println();
        out.println("$ kubectl delete namespace " + NS + "   (the journey's pods: their CPUs are yours now)");
        plane.kubectl("delete", "namespace", NS, "--wait=true", "--timeout=120s")
                .assertSuccess();
        plane.ensureNamespace(PLAYGROUND_NS);
        Pod example = SamplePods.inNamespace(
                PLAYGROUND_NS,
                WorkloadPods.ofImage(
                        SamplePods.budgeted(node.nodeName(), "my-trader", 1), images.reference(PodnumaImage.WORKLOAD)));
        Path pod = workDir.resolve("playground/my-trader.yaml");
        Files.createDirectories(pod.getParent());
        Files.writeString(pod, Serialization.asYaml(example));
        return new Playground(
                plane.kubeconfig(),
                plane.binDir(),
                Optional.of(pod),
                List.of(
                        "kubectl get pods -n " + PLAYGROUND_NS + " -o wide",
                        "kubectl logs -n " + PLAYGROUND_NS + " my-trader -c engine     # affinity cpus=<its CPU>"
                                + " mems=<its NUMA node>, as the container reads it",
                        "kubectl get nrp; kubectl describe nrp " + POLICY + "; kubectl get nns " + node.nodeName()
                                + " -o yaml",
                        "grep -r . /sys/fs/cgroup/cpuset/kubepods --include=cpuset.cpus     # the cgroup files the"
                                + " agent writes",
                        "helm list -A; kubectl get pods -n " + PodnumaChart.NAMESPACE + " -o wide",
                        "pods run podnuma.local/workload:" + images.tag() + " (imagePullPolicy: Never), the node is "
                                + node.nodeName() + " (labelled podnuma.io/pinning=enabled)"));
    }

    private JourneyReport journey(LocalControlPlane plane, RealNode node, boolean keep) throws Exception {
        PodnumaChart chart = new PodnumaChart(plane, workDir.resolve("helm"));
        Map<String, Object> values = PodnumaChart.realNodeValues(
                node,
                images.reference(PodnumaImage.OPERATOR),
                images.reference(PodnumaImage.NODE_AGENT),
                FreePorts.next(),
                FreePorts.next());
        int metricsPort = (Integer) ((Map<?, ?>) values.get("agent")).get("metricsPort");

        section("helm install podnuma helm/podnuma -n " + PodnumaChart.NAMESPACE + " --create-namespace --wait");
        out.println("values for this node: the images imported into its containerd (pullPolicy Never), the API server"
                + " where its pods reach it (no kube-proxy here), the agent's state under the node's run directory");
        Duration install = chart.install(values, Duration.ofSeconds(150));
        out.printf("installed in %.1f s%n", install.toMillis() / 1000.0);
        out.println("$ helm get notes podnuma   (what the chart tells the user to do next)");
        out.println(chart.helm("get", "notes", PodnumaChart.RELEASE, "-n", PodnumaChart.NAMESPACE)
                .assertSuccess()
                .stdout()
                .strip());
        out.println(plane.kubectl("get", "deploy,pods", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                .assertSuccess()
                .stdout()
                .strip());

        section("The quickstart policy (crds/examples/quickstart.yaml) on the labelled node");
        out.println("$ kubectl label node " + node.nodeName() + " podnuma.io/pinning=enabled");
        plane.kubectl("label", "node", node.nodeName(), "podnuma.io/pinning=enabled", "--overwrite")
                .assertSuccess();
        out.println("$ kubectl apply -f crds/examples/quickstart.yaml");
        out.println(plane.kubectl(
                        "apply",
                        "-f",
                        root.resolve("crds/examples/quickstart.yaml").toString())
                .assertSuccess()
                .stdout()
                .strip());
        Waits.await(
                WAIT, "the agent pod Ready on the node", () -> PodsTable.readyAgent(plane, node.nodeName(), POLICY));
        out.println(plane.kubectl(
                        "get", "ds,pods", "-n", PodnumaChart.NAMESPACE, "-l", "app.kubernetes.io/name=podnuma-agent")
                .assertSuccess()
                .stdout()
                .strip());

        section("Pods: trader (pod budget 1 CPU: app + native sidecar), web (Burstable), trader-2 (too big)");
        plane.ensureNamespace(NS);
        String workload = images.reference(PodnumaImage.WORKLOAD);
        Map<String, List<String>> containers = new LinkedHashMap<>();
        for (Pod pod : List.of(
                SamplePods.budgeted(node.nodeName(), "trader", 1),
                SamplePods.burstable(node.nodeName(), "web"),
                // One CPU more than is left outside the reserved one and trader's bubble: podnuma refuses it.
                SamplePods.budgeted(node.nodeName(), "trader-2", 1))) {
            containers.put(
                    pod.getMetadata().getName(),
                    List.copyOf(WorkloadPods.run(plane, node, NS, pod, workload).keySet()));
        }
        Waits.await(
                WAIT,
                "trader pinned in the NumaNodeState",
                () -> NodeStateReads.status(plane.client(), node.nodeName())
                        .filter(s -> s.toString().contains("name=trader,")));
        List<ContainerRow> pinned = awaitRows(plane, node, containers);
        table(pinned);
        plane.client().v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType()))
                .forEach(e -> out.printf(
                        "Warning %s on %s: %s%n",
                        e.getReason(), e.getInvolvedObject().getName(), e.getMessage()));

        section("kubectl get nrp -o wide; kubectl describe nrp " + POLICY);
        out.println(plane.kubectl("get", "nrp", "-o", "wide")
                .assertSuccess()
                .stdout()
                .strip());
        out.println();
        out.println(plane.kubectl("describe", "nrp", POLICY)
                .assertSuccess()
                .stdout()
                .strip());

        section("The agent's /metrics (excerpt) and Prometheus (Kubernetes service discovery)");
        metricsExcerpt(metricsPort);
        prometheus(plane);
        if (keep) {
            return new JourneyReport(pinned, List.of(), install, Duration.ZERO);
        }

        section("kubectl delete nrp " + POLICY + "; helm uninstall podnuma");
        plane.kubectl("delete", "nrp", POLICY, "--wait=true", "--timeout=120s").assertSuccess();
        Duration uninstall = chart.uninstall(Duration.ofSeconds(150));
        out.printf("uninstalled in %.1f s; every container is back on every CPU:%n", uninstall.toMillis() / 1000.0);
        List<ContainerRow> restored = PodsTable.rows(plane, node.nodeName(), NS, containers);
        table(restored);
        out.println("node labels podnuma.io/*: "
                + plane.client().nodes().withName(node.nodeName()).get().getMetadata().getLabels().keySet().stream()
                        .filter(k -> k.startsWith("podnuma.io/"))
                        .toList());
        plane.kubectl("delete", "namespace", NS, "--wait=false");
        return new JourneyReport(pinned, restored, install, uninstall);
    }

    private List<ContainerRow> awaitRows(LocalControlPlane plane, RealNode node, Map<String, List<String>> containers)
            throws InterruptedException {
        return Waits.await(WAIT, "every container on its CPUs", () -> {
            List<ContainerRow> rows = PodsTable.rows(plane, node.nodeName(), NS, containers);
            CpuList bubble = rows.get(0).cpus();
            return rows.stream().allMatch(r -> !r.pool().equals("?")) && bubble.size() == 1
                    ? Optional.of(rows)
                    : Optional.empty();
        });
    }

    private void table(List<ContainerRow> rows) {
        out.printf("%-10s %-10s %-6s %-6s %s%n", "POD", "CONTAINER", "CPUS", "NUMA", "POOL");
        rows.forEach(
                r -> out.printf("%-10s %-10s %-6s %-6s %s%n", r.pod(), r.container(), r.cpus(), r.mems(), r.pool()));
        out.println(
                "(CPUS and NUMA as each container reads them from /proc/self/status: kubectl exec ... /workload report)");
    }

    private void metricsExcerpt(int port) throws Exception {
        AgentMetrics.excerpt(PlainMetrics.fetch(port)).forEach(l -> out.println("  " + l));
    }

    private void prometheus(LocalControlPlane plane) throws Exception {
        String config = """
                global:
                  scrape_interval: 2s
                scrape_configs:
                %s
                """.formatted(PodnumaScrapeConfigs.kubernetesPods(plane.kubeconfig(), PodnumaChart.NAMESPACE)
                .indent(2));
        try (PrometheusServer prometheus = PrometheusServer.start(plane, workDir.resolve("prometheus"), config)) {
            List<PrometheusApi.Target> targets = Waits.await(
                    WAIT,
                    "every target scraped",
                    () -> Optional.of(prometheus.activeTargets())
                            .filter(ts -> ts.size() >= 3
                                    && ts.stream().allMatch(t -> t.health() == PrometheusApi.TargetHealth.UP)));
            out.println("targets (role: pod, kept by their app.kubernetes.io labels and the port named metrics):");
            targets.forEach(t -> out.printf("  %-17s %s %s%n", t.labels().get("job"), t.scrapeUrl(), t.health()));
            for (String query : List.of(
                    "podnuma_cpu_manager_exclusive_cpu_allocation_count", "max by (state) (podnuma_operator_nodes)")) {
                List<PrometheusApi.Sample> samples = Waits.await(
                        WAIT,
                        "a sample of " + query,
                        () -> Optional.of(prometheus.query(query)).filter(s -> !s.isEmpty()));
                out.println("$ query " + query);
                samples.forEach(s -> out.printf("  %s %s%n", s.labels(), s.value()));
            }
        }
    }

    private void section(String title) {
        out.printf("%n== %s ==%n", title);
    }

    /** What the journey saw, for its test. */
    public record JourneyReport(
            List<ContainerRow> pinned, List<ContainerRow> restored, Duration install, Duration uninstall) {}
}
