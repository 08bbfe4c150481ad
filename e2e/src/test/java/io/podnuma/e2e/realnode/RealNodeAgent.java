package io.podnuma.e2e.realnode;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.images.PodnumaImage;
import io.podnuma.operator.render.AgentHostPaths;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.ApiServerEndpoint;
import io.podnuma.operator.render.PullPolicy;
import io.podnuma.operator.render.RenderedAgent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The node agent as a DaemonSet pod on the real node, deployed the way the operator will: the objects
 * {@link AgentRender} makes from a policy, applied server-side with the operator's field manager, under the agent's own
 * ServiceAccount ({@link AgentRbac}). The pod runs on the host network (no kube-proxy here) and dials the API server on
 * loopback; its state directory is under the node's run directory, so the node's cleanup removes it.
 */
public final class RealNodeAgent {

    public static final String NAMESPACE = "podnuma-system";
    /** The operator's one field manager: what it applies here is what it will own there. */
    static final String FIELD_MANAGER = "podnuma-operator";

    private static final Duration READY = Duration.ofSeconds(120);
    private final LocalControlPlane plane;
    private final RealNode node;
    private final RenderedAgent rendered;
    private final AgentRollout rollout;
    private final HttpClient http = HttpClient.newHttpClient();

    private RealNodeAgent(LocalControlPlane plane, RealNode node, RenderedAgent rendered, AgentRollout rollout) {
        this.plane = plane;
        this.node = node;
        this.rendered = rendered;
        this.rollout = rollout;
    }

    /** The images the real node must import for this agent and the workload pods. */
    public static List<Path> images() {
        Path dir = imagesDir();
        return List.of(PodnumaImage.NODE_AGENT.tarIn(dir), PodnumaImage.WORKLOAD.tarIn(dir));
    }

    /** Why the images are not there, if they are not (they are built by {@code package} of e2e/images). */
    public static Optional<String> whyNoImages() {
        for (Path tar : images()) {
            if (!tar.toFile().isFile()) {
                return Optional.of("no image " + tar + " (built by `./mvnw package -pl e2e/images -am`)");
            }
        }
        return Optional.empty();
    }

    public static String workloadImage() {
        return PodnumaImage.WORKLOAD.name(tag()).reference();
    }

    /** Applies the agent's identity and policy {@code policyName}'s objects; the pod comes once the node is labelled. */
    public static RealNodeAgent deploy(
            LocalControlPlane plane, RealNode node, String policyName, NumaResourcePolicySpec spec) {
        AgentRollout rollout = AgentRollout.defaults(
                        PodnumaImage.NODE_AGENT.name(tag()).reference())
                .toBuilder()
                .namespace(NAMESPACE)
                .pullPolicy(PullPolicy.NEVER)
                .ports(FreePorts.next(), FreePorts.next())
                .apiServer(new ApiServerEndpoint("127.0.0.1", node.apiServerPort()))
                .hostPaths(new AgentHostPaths(
                        "/sys",
                        "/sys/fs/cgroup",
                        node.runDir().resolve("podnuma-agent").toString(),
                        Optional.of(node.kubeletRootDir().toString()),
                        Optional.of(node.kubeletConfigFile().toString())))
                // No CPU request: on a two-CPU node the scenario's pods need both CPUs of the kubelet's allocatable.
                .resources(Map.of("memory", new Quantity("160Mi")), Map.of("memory", new Quantity("512Mi")))
                .periods(Duration.ofSeconds(2), Duration.ofMillis(200))
                .build();
        RenderedAgent rendered = AgentRender.render(policyName, spec, rollout);
        for (HasMetadata o : AgentRbac.objects(NAMESPACE)) {
            apply(plane, o);
        }
        apply(plane, rendered.configMap());
        apply(plane, rendered.service());
        apply(plane, rendered.daemonSet());
        return new RealNodeAgent(plane, node, rendered, rollout);
    }

    private static void apply(LocalControlPlane plane, HasMetadata o) {
        plane.client().resource(o).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
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
                .withLabels(AgentRender.selector(policyName()))
                .list()
                .getItems()
                .stream()
                .filter(p -> node.nodeName().equals(p.getSpec().getNodeName()))
                .findFirst();
    }

    public String metrics() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rollout.metricsPort() + "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("/metrics answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** The agent container's log (the current pod's, or a note that there is none). */
    public String logs() {
        return pod().map(p -> plane.kubectl(
                                "logs", "-n", NAMESPACE, p.getMetadata().getName(), "--tail=60")
                        .stdout())
                .orElse("(no agent pod)");
    }

    public RenderedAgent rendered() {
        return rendered;
    }

    private String policyName() {
        return rendered.configMap().getMetadata().getLabels().get(AgentRender.POLICY_LABEL);
    }

    private static boolean ready(Pod pod) {
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
