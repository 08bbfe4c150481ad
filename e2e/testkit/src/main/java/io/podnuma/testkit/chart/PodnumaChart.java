package io.podnuma.testkit.chart;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.GuestNode;
import io.podnuma.controlplane.RealNode;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.agent.AgentPlacement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chart {@code helm/podnuma} as a user runs it, through the real {@code helm}: install, upgrade and uninstall of
 * release {@value #RELEASE} in {@value #NAMESPACE}, each waiting as {@code --wait} does and timed. Values are written
 * to a file (JSON, which is YAML) so nested values keep their types.
 */
public final class PodnumaChart {

    public static final String RELEASE = "podnuma";
    public static final String NAMESPACE = "podnuma-system";
    /** The operator Deployment, its Lease and its pods' component label, for the chart's default names. */
    public static final String OPERATOR = RELEASE + "-operator";
    /** The agent's ServiceAccount (and ClusterRole) for the chart's default names. */
    public static final String AGENT = RELEASE + "-agent";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ControlPlane cp;
    private final Path workDir;
    private int valuesFiles;

    public PodnumaChart(ControlPlane cp, Path workDir) {
        this.cp = cp;
        this.workDir = workDir;
    }

    /**
     * helm arguments setting the agent's extras: {@code JAVA_TOOL_OPTIONS=-Xlog:gc} and {@code EMPTY=""} as extra
     * variables, {@code --log-level debug} as extra arguments, and a node affinity to {@code kubernetes.io/arch=amd64}.
     */
    public static final List<String> AGENT_EXTRAS_ARGS = List.of(
            "--set-json",
            "agent.extraEnv=[{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Xlog:gc\"},"
                    + "{\"name\":\"EMPTY\",\"value\":\"\"}]",
            "--set-json",
            "agent.extraArgs=[\"--log-level\",\"debug\"]",
            "--set-json",
            "agent.affinity={\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                    + "{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":\"kubernetes.io/arch\","
                    + "\"operator\":\"In\",\"values\":[\"amd64\"]}]}]}}}");

    /** The chart's directory in this checkout. */
    public static Path dir() {
        return Repository.resolve("helm/podnuma");
    }

    /**
     * The values a {@link RealNode} needs: the images imported into its containerd (never pulled), the API server
     * where pods reach it (no kube-proxy: the operator on the pod network dials the bridge gateway, the agents on the
     * host network loopback), the agent's state under the node's run directory (the node's cleanup removes it) and
     * the node's kubelet paths; no CPU requests (the scenarios' pods need every allocatable CPU of a small node).
     */
    public static Map<String, Object> realNodeValues(
            RealNode node, String operatorImage, String agentImage, int agentMetricsPort, int agentHealthPort) {
        Map<String, Object> operator = new LinkedHashMap<>();
        operator.put("image", image(operatorImage));
        operator.put("apiServer", node.apiServerForPods());
        operator.put("resources", resources("128Mi", "384Mi"));
        Map<String, Object> agent = new LinkedHashMap<>();
        agent.put("image", image(agentImage));
        agent.put("apiServer", "127.0.0.1:" + node.apiServerPort());
        agent.put("metricsPort", agentMetricsPort);
        agent.put("healthPort", agentHealthPort);
        Path state = agentStateDir(node);
        agent.put("podResourcesSocket", podResourcesSocketIn(state).toString());
        // containerd's NRI socket is private to the node's run directory: the agent is its plugin there.
        agent.put("nriSocket", node.nriSocket().toString());
        agent.put("resources", resources("160Mi", "512Mi"));
        agent.put(
                "hostPaths",
                Map.of(
                        "stateDir", state.toString(),
                        "kubeletRootDir", node.kubeletRootDir().toString(),
                        "kubeletConfigFile", node.kubeletConfigFile().toString()));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("operator", operator);
        values.put("agent", agent);
        return values;
    }

    /**
     * The values for a cluster where the operator and the agent run as processes of this machine beside kwok nodes:
     * no operator pod (the test runs {@code operator run} with the settings the chart rendered), the agent's ports
     * and files where {@code agent} (the process standing for the DaemonSet's pod) has them, so the DaemonSet the
     * operator renders names them; no kubelet files on a kwok node; no CPU request (the scenarios' pods, bound to the
     * node by name, take every allocatable CPU: a rolled agent pod that asks for one has the scheduler preempt a
     * workload pod). The images are never pulled.
     */
    public static Map<String, Object> processValues(AgentPlacement agent) {
        Map<String, Object> agentValues = new LinkedHashMap<>();
        agentValues.put("metricsPort", agent.metricsPort());
        agentValues.put("healthPort", agent.healthPort());
        agentValues.put("podResourcesSocket", agent.socket().toString());
        agentValues.put(
                "hostPaths",
                Map.of(
                        "stateDir", agent.stateDir().toString(),
                        "kubeletRootDir", "",
                        "kubeletConfigFile", ""));
        agentValues.put("resources", resources("160Mi", "256Mi"));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("operator", Map.of("replicas", 0));
        values.put("agent", agentValues);
        return values;
    }

    /**
     * The values for a one-node cluster in a container (k3s): the images imported into its containerd (never pulled);
     * one operator replica on the node's host network, so that this machine reaches it at the node's address as it
     * reaches the agent; the agent's state in {@code stateDir} (a directory of this machine bound into the container
     * at the same path); no kubelet config file (k3s passes flags); no CPU requests (the scenarios' pods take every
     * allocatable CPU).
     */
    public static Map<String, Object> containerNodeValues(String operatorImage, String agentImage, Path stateDir) {
        Map<String, Object> operator = new LinkedHashMap<>();
        operator.put("image", image(operatorImage));
        operator.put("replicas", 1);
        operator.put("hostNetwork", true);
        operator.put("resources", resources("128Mi", "384Mi"));
        Map<String, Object> agent = new LinkedHashMap<>();
        agent.put("image", image(agentImage));
        agent.put("podResourcesSocket", podResourcesSocketIn(stateDir).toString());
        agent.put("resources", resources("160Mi", "512Mi"));
        agent.put("hostPaths", Map.of("stateDir", stateDir.toString(), "kubeletConfigFile", ""));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("operator", operator);
        values.put("agent", agent);
        return values;
    }

    /**
     * The values a {@link GuestNode} needs: no operator pod (the test runs {@code operator run} on this machine, as
     * for {@link #processValues}: a JVM under software emulation would only slow the journey), the agent image
     * imported into the guest's containerd, the API server where the guest dials it, ports the guest forwards to this
     * machine's loopback, the agent's state on the guest's tmpfs, and the guest's kubelet paths.
     */
    public static Map<String, Object> guestNodeValues(
            GuestNode node, String agentImage, int agentMetricsPort, int agentHealthPort) {
        Map<String, Object> agent = new LinkedHashMap<>();
        agent.put("image", image(agentImage));
        agent.put("apiServer", node.apiServerFromGuest());
        agent.put("metricsPort", agentMetricsPort);
        agent.put("healthPort", agentHealthPort);
        agent.put("podResourcesSocket", GUEST_AGENT_STATE + "/pod-resources/podnuma.sock");
        agent.put("resources", resources("160Mi", "512Mi"));
        // The guest's 6.12 kernel makes cpuset partitions, for the agent with the capability it requires.
        agent.put("cpusetPartitions", true);
        agent.put(
                "hostPaths",
                Map.of(
                        "stateDir", GUEST_AGENT_STATE,
                        "kubeletRootDir", GuestNode.KUBELET_ROOT,
                        "kubeletConfigFile", GuestNode.KUBELET_CONFIG));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("operator", Map.of("replicas", 0));
        values.put("agent", agent);
        return values;
    }

    /** Where {@link #guestNodeValues} keeps the agent's state in the guest. */
    public static final String GUEST_AGENT_STATE = "/var/lib/podnuma-agent";

    /** Where the values of this class put the agent's PodResources socket, in its state directory. */
    public static Path podResourcesSocketIn(Path stateDir) {
        return stateDir.resolve("pod-resources/podnuma.sock");
    }

    /** Where {@link #realNodeValues} puts the agent's state (checkpoint, PodResources socket) on the node. */
    public static Path agentStateDir(RealNode node) {
        return node.runDir().resolve("podnuma-agent");
    }

    /** {@code helm install --create-namespace --wait}; returns how long it took. */
    public Duration install(Map<String, Object> values, Duration timeout) throws IOException {
        return timed(List.of(valuesFile(values)), timeout, "install", "--create-namespace");
    }

    /**
     * {@code helm upgrade --wait} with the user's values file and {@code changes} on top, as a user keeps a values
     * file ({@code --reuse-values} would keep the nulls that delete chart defaults, which the schema then refuses);
     * returns how long it took.
     */
    public Duration upgrade(Map<String, Object> values, Map<String, Object> changes, Duration timeout)
            throws IOException {
        return timed(List.of(valuesFile(values), valuesFile(changes)), timeout, "upgrade", "--reset-values");
    }

    /** {@code helm uninstall --wait}; returns how long it took. */
    public Duration uninstall(Duration timeout) {
        long start = System.nanoTime();
        helm("uninstall", RELEASE, "--namespace", NAMESPACE, "--wait", "--timeout", timeout.toSeconds() + "s")
                .assertSuccess();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** {@code helm template} of the release with {@code values}: the manifests an install would apply. */
    public String template(Map<String, Object> values, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "template",
                RELEASE,
                dir().toString(),
                "--namespace",
                NAMESPACE,
                "-f",
                valuesFile(values).toString()));
        args.addAll(List.of(more));
        return helm(args.toArray(String[]::new)).assertSuccess().stdout();
    }

    /**
     * The agent's identity as the chart makes it, without the rest of the release: its ServiceAccount in
     * {@value #NAMESPACE}, ClusterRole and binding ({@code templates/agent-rbac.yaml}), applied server-side. Returns
     * the ServiceAccount's name, {@value #AGENT}.
     */
    public String applyAgentRbac() throws IOException {
        cp.ensureNamespace(NAMESPACE);
        String rbac = template(Map.of(), "--show-only", "templates/agent-rbac.yaml");
        cp.kubectlWithStdin(rbac, "apply", "--server-side", "--field-manager=podnuma-tests", "-f", "-")
                .assertSuccess();
        return AGENT;
    }

    /** Any helm command against the plane (its kubeconfig). */
    public CommandResult helm(String... args) {
        return cp.helm(args);
    }

    private Duration timed(List<Path> valuesFiles, Duration timeout, String verb, String flag) {
        long start = System.nanoTime();
        List<String> args = new ArrayList<>(List.of(verb, RELEASE, dir().toString(), "--namespace", NAMESPACE, flag));
        valuesFiles.forEach(f -> args.addAll(List.of("-f", f.toString())));
        args.addAll(List.of("--wait", "--timeout", timeout.toSeconds() + "s"));
        CommandResult r = helm(args.toArray(String[]::new));
        if (!r.succeeded()) {
            throw new AssertionError(
                    "helm " + verb + " failed (" + r.exitCode() + "):\n" + r.output() + "\n" + clusterState());
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * What the release namespace looks like, for a failure's message: its workloads, the agents' config hash, the
     * Lease, the operator's log tail and the pods' descriptions (events, last states).
     */
    public String clusterState() {
        return String.join(
                "\n",
                cp.kubectl("get", "deploy,ds,pods,cm", "-n", NAMESPACE, "-o", "wide")
                        .output(),
                cp.kubectl(
                                "get",
                                "ds",
                                "-n",
                                NAMESPACE,
                                "-o",
                                "jsonpath={.items[*].spec.template.metadata.annotations}")
                        .output(),
                cp.kubectl("get", "lease", "-n", NAMESPACE, "-o", "yaml").output(),
                cp.kubectl(
                                "logs",
                                "-n",
                                NAMESPACE,
                                "-l",
                                "app.kubernetes.io/component=operator",
                                "--prefix",
                                "--tail=40")
                        .output(),
                cp.kubectl("describe", "pods", "-n", NAMESPACE).output());
    }

    private Path valuesFile(Map<String, Object> values) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve("values-" + (++valuesFiles) + ".yaml");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(values));
        return file;
    }

    /** A null value deletes the chart's default: here its CPU request. */
    private static Map<String, Object> resources(String memoryRequest, String memoryLimit) {
        Map<String, Object> requests = new LinkedHashMap<>();
        requests.put("cpu", null);
        requests.put("memory", memoryRequest);
        return Map.of("requests", requests, "limits", Map.of("memory", memoryLimit));
    }

    private static Map<String, Object> image(String reference) {
        int colon = reference.lastIndexOf(':');
        return Map.of(
                "repository", reference.substring(0, colon),
                "tag", reference.substring(colon + 1),
                "pullPolicy", "Never");
    }
}
