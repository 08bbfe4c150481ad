package io.podnuma.e2e.realnode;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.images.PodnumaImage;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.metrics.PlainMetrics;
import io.podnuma.testkit.operator.OperatorProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The node agent as a DaemonSet pod on the real node, rolled out by the real operator: {@code operator run} as a
 * process with the settings a cluster without kube-proxy needs (the agents dial the API server on loopback, on the
 * host network) and this node's paths (the agent's state under the node's run directory, so the node's cleanup
 * removes it; the kubelet's root and config file); a {@code NumaResourcePolicy} that selects the node by
 * {@link #SELECTOR_LABEL}. The agent runs under its own ServiceAccount with the ClusterRole its docs list
 * (the chart's {@code templates/agent-rbac.yaml}, rendered by {@code helm template}).
 */
public final class RealNodeAgent implements AutoCloseable {

    public static final String NAMESPACE = "podnuma-system";
    /** The label the test's policies select the node by; taking it off is how the node leaves the policy. */
    public static final String SELECTOR_LABEL = "podnuma.io/e2e-policy";

    private static final Duration READY = Duration.ofSeconds(120);
    private final LocalControlPlane plane;
    private final RealNode node;
    private final String policyName;
    private final int metricsPort;
    private final Path operatorDir;
    private final Map<String, String> settings;
    private OperatorProcess operator;

    private RealNodeAgent(
            LocalControlPlane plane,
            RealNode node,
            String policyName,
            int metricsPort,
            Path operatorDir,
            Map<String, String> settings,
            OperatorProcess operator) {
        this.plane = plane;
        this.node = node;
        this.policyName = policyName;
        this.metricsPort = metricsPort;
        this.operatorDir = operatorDir;
        this.settings = settings;
        this.operator = operator;
    }

    /** The images the real node must import for this agent and the workload pods. */
    public static List<Path> images() {
        return tars(List.of(PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD));
    }

    /** The tars of {@code images}, as {@code package} of e2e/images builds them. */
    public static List<Path> tars(List<PodnumaImage> images) {
        Path dir = imagesDir();
        return images.stream().map(i -> i.tarIn(dir)).toList();
    }

    /** The reference {@code image} is imported under. */
    public static String reference(PodnumaImage image) {
        return image.name(tag()).reference();
    }

    /** Why the images are not there, if they are not (they are built by {@code package} of e2e/images). */
    public static Optional<String> whyNoImages() {
        return whyMissing(images());
    }

    /** Why one of {@code tars} is not there, if one is not. */
    public static Optional<String> whyMissing(List<Path> tars) {
        for (Path tar : tars) {
            if (!tar.toFile().isFile()) {
                return Optional.of("no image " + tar + " (built by `./mvnw package -pl e2e/images -am`)");
            }
        }
        return Optional.empty();
    }

    public static String workloadImage() {
        return reference(PodnumaImage.WORKLOAD);
    }

    /** Puts the node in policy {@code policyName}'s selector (the node joins once the policy is there). */
    public static void select(LocalControlPlane plane, RealNode node, String policyName) {
        plane.kubectl("label", "node", node.nodeName(), SELECTOR_LABEL + "=" + policyName, "--overwrite")
                .assertSuccess();
    }

    /** Takes the node out of every test policy's selector: the operator then takes its policy label off. */
    public static void unselect(LocalControlPlane plane, RealNode node) {
        plane.kubectl("label", "node", node.nodeName(), SELECTOR_LABEL + "-").assertSuccess();
    }

    /**
     * Installs the CRDs, applies the agent's identity, starts the operator and applies policy {@code policyName} (the spec with a
     * selector on {@link #SELECTOR_LABEL}); the operator labels a selected node and rolls the agent out.
     */
    public static RealNodeAgent deploy(
            LocalControlPlane plane, RealNode node, Path workDir, String policyName, NumaResourcePolicySpec spec)
            throws Exception {
        return deploy(plane, node, workDir, policyName, spec, Map.of());
    }

    /** {@link #deploy} with operator settings of the test's own (flag names without dashes, e.g. {@code agent-pinning}). */
    public static RealNodeAgent deploy(
            LocalControlPlane plane,
            RealNode node,
            Path workDir,
            String policyName,
            NumaResourcePolicySpec spec,
            Map<String, String> extraSettings)
            throws Exception {
        plane.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        // The agent's identity as the chart makes it: its ServiceAccount and ClusterRole (+ binding).
        new PodnumaChart(plane, workDir.resolve("helm")).applyAgentRbac();
        int metricsPort = FreePorts.next();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("namespace", NAMESPACE);
        settings.put("agent-image", reference(PodnumaImage.NODE_AGENT));
        settings.put("agent-pull-policy", "Never");
        settings.put("agent-metrics-port", Integer.toString(metricsPort));
        settings.put("agent-health-port", Integer.toString(FreePorts.next()));
        // No kube-proxy here: the agents dial the API server where it listens, on loopback.
        settings.put("api-server", "127.0.0.1:" + node.apiServerPort());
        // The agent's files in the node's run directory (its cleanup removes them), not under /var/lib/podnuma.
        Path state = PodnumaChart.agentStateDir(node);
        settings.put("host-state-dir", state.toString());
        settings.put(
                "agent-pod-resources-socket",
                PodnumaChart.podResourcesSocketIn(state).toString());
        settings.put("kubelet-root-dir", node.kubeletRootDir().toString());
        settings.put("kubelet-config-file", node.kubeletConfigFile().toString());
        // No CPU request: on a two-CPU node the scenario's pods need both CPUs of the kubelet's allocatable.
        settings.put("agent-cpu-request", "");
        settings.put("agent-memory-limit", "512Mi");
        settings.put("leader-election", "false");
        settings.putAll(extraSettings);
        OperatorProcess operator = OperatorProcess.start(workDir.resolve("operator"), plane.kubeconfig(), settings);
        try {
            operator.awaitReady(Duration.ofSeconds(90));
            NumaResourcePolicySpec selecting = SampleConfigs.selecting(spec, SELECTOR_LABEL, policyName);
            plane.client()
                    .resource(new NumaResourcePolicy(policyName, selecting))
                    .serverSideApply();
            return new RealNodeAgent(
                    plane, node, policyName, metricsPort, workDir.resolve("operator"), settings, operator);
        } catch (Exception | Error e) {
            System.err.println("[RealNodeAgent] the operator's log:\n" + operator.logTail());
            operator.close();
            throw e;
        }
    }

    /** The agent pod on the node once it is Ready and is not {@code notThisUid} (the one a restart replaced). */
    public Pod awaitReady(Optional<String> notThisUid) throws InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            Optional<Pod> pod = pod().filter(p ->
                    notThisUid.map(u -> !u.equals(p.getMetadata().getUid())).orElse(true));
            if (pod.isPresent() && ready(pod.get())) {
                return pod.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the agent pod was not Ready within " + READY.toSeconds() + " s (last: "
                        + pod.map(p -> p.getStatus().toString()).orElse("none") + ")\n" + logs());
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    /** Deletes the agent pod (as {@code kubectl delete pod} does) and waits for the DaemonSet's next one. */
    public Pod restart() throws InterruptedException {
        Pod old = pod().orElseThrow(() -> new AssertionError("no agent pod to restart"));
        plane.kubectl("delete", "pod", "-n", NAMESPACE, old.getMetadata().getName(), "--wait=true", "--timeout=90s")
                .assertSuccess();
        return awaitReady(Optional.of(old.getMetadata().getUid()));
    }

    /**
     * Restarts the operator with {@code changed} settings on top of the current ones; the agent DaemonSet rolls to
     * the new rendering. Returns the new agent pod once it is Ready.
     */
    public Pod reconfigure(Map<String, String> changed) throws Exception {
        String before = pod().map(p -> p.getMetadata().getUid()).orElse("");
        operator.terminate(Duration.ofSeconds(30));
        settings.putAll(changed);
        startOperator();
        return awaitReady(Optional.of(before));
    }

    /**
     * Takes the agent off the node while the node stays in the policy, as an agent crash-looping or not yet scheduled
     * would leave it: the operator stops (so it does not put the DaemonSet back), the DaemonSet is deleted and its pod
     * stopped (SIGTERM: it keeps every pin).
     */
    public void removeAgent() throws Exception {
        operator.terminate(Duration.ofSeconds(30));
        plane.kubectl(
                        "delete",
                        "daemonset",
                        "-n",
                        NAMESPACE,
                        AgentRender.objectName(policyName),
                        "--wait=true",
                        "--timeout=90s")
                .assertSuccess();
        awaitGone();
    }

    /** Starts the operator again: it renders the DaemonSet back; returns the agent pod once it is Ready. */
    public Pod restoreAgent() throws Exception {
        startOperator();
        return awaitReady(Optional.empty());
    }

    private void startOperator() throws Exception {
        operator = OperatorProcess.start(operatorDir, plane.kubeconfig(), settings);
        operator.awaitReady(Duration.ofSeconds(90));
    }

    /** Waits until the node has no agent pod (the DaemonSet controller deleted it and the kubelet confirmed). */
    public void awaitGone() throws InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (pod().isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the agent pod is still there " + READY.toSeconds() + " s later\n" + logs());
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    public Optional<Pod> pod() {
        return plane
                .client()
                .pods()
                .inNamespace(NAMESPACE)
                .withLabels(AgentRender.selector(policyName))
                .list()
                .getItems()
                .stream()
                .filter(p -> node.nodeName().equals(p.getSpec().getNodeName()))
                .findFirst();
    }

    public String metrics() throws Exception {
        return metricsAt(metricsPort);
    }

    /** {@code /metrics} of an agent on the host network, at {@code port} on loopback. */
    public static String metricsAt(int port) throws Exception {
        return PlainMetrics.fetch(port);
    }

    /** The agent container's log (the current pod's, or a note that there is none). */
    public String logs() {
        return pod().map(p -> plane.kubectl(
                                "logs", "-n", NAMESPACE, p.getMetadata().getName(), "--tail=60")
                        .stdout())
                .orElse("(no agent pod)");
    }

    /** The operator's log tail, for a failure's message. */
    public String operatorLog() throws java.io.IOException {
        return operator.logTail();
    }

    /** Deletes the policy while the operator runs (its finalizer is released), then stops the operator. */
    @Override
    public void close() throws Exception {
        try {
            plane.kubectl("delete", "nrp", policyName, "--ignore-not-found", "--wait=true", "--timeout=60s");
        } finally {
            operator.terminate(Duration.ofSeconds(30));
        }
    }

    /** The pod's Ready condition is True. */
    public static boolean ready(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Path imagesDir() {
        return Path.of(System.getProperty("podnuma.images.dir", "images/target/images"));
    }

    private static String tag() {
        return System.getProperty("podnuma.images.tag", "0.1.0-SNAPSHOT");
    }
}
