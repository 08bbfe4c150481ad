package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.RenderedConfigs;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.host.KubeletLikeHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The kubelet's part for the agent DaemonSet's pod on a kwok node (kwok only plays it Running): a pod the DaemonSet
 * controller created gets an {@code node-agent run} process with the config file the operator rendered for it (as its
 * ConfigMap mount would show it, adapted to this host by {@link RenderedConfigs#onThisHost}); when that pod is deleted
 * (a rolling update, the node leaving the policy, the DaemonSet going) the process gets SIGTERM, and decides itself
 * whether to keep the pins or give every CPU back, as in a real pod.
 */
final class AgentPodKubelet implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(90);
    private static final Duration STOP = Duration.ofSeconds(30);
    /** The JVM's exit code after SIGTERM when the shutdown hook finished. */
    private static final int SIGTERM_EXIT = 143;

    private final ControlPlane cp;
    private final AgentProcess agent;
    private final KubeletLikeHost host;
    private final String node;
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "agent-pod-kubelet");
        t.setDaemon(true);
        return t;
    });
    private final List<String> problems = new CopyOnWriteArrayList<>();
    /** The UID of the pod the running process is, or null when none runs. */
    private String servedUid;

    AgentPodKubelet(ControlPlane cp, AgentProcess agent, KubeletLikeHost host, String node) {
        this.cp = cp;
        this.agent = agent;
        this.host = host;
        this.node = node;
        watch.scheduleWithFixedDelay(this::stopIfPodGone, 250, 250, TimeUnit.MILLISECONDS);
    }

    /**
     * Waits for the node's agent pod that is not {@code notThisUid} to run with the config its template names, (re)starts
     * the process for it and returns the pod once the process is ready.
     */
    Pod awaitPod(Optional<String> notThisUid) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            Optional<Pod> pod = AgentPods.current(cp.client(), node)
                    .filter(p -> notThisUid
                            .map(u -> !u.equals(p.getMetadata().getUid()))
                            .orElse(true))
                    .filter(p -> p.getStatus() != null
                            && "Running".equals(p.getStatus().getPhase()));
            Optional<String> config = pod.flatMap(this::renderedConfigFor);
            if (config.isPresent()) {
                start(pod.get(), config.get());
                return pod.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no Running agent pod on " + node + " other than " + notThisUid.orElse("-")
                        + " with its config rendered within " + READY.toSeconds() + " s:\n"
                        + cp.kubectl("get", "pods,ds,cm", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                                .output());
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    /** What this kubelet saw go wrong in the background (an agent that did not stop as it should). */
    List<String> problems() {
        return List.copyOf(problems);
    }

    private synchronized void start(Pod pod, String config) throws IOException, InterruptedException {
        if (agent.isAlive()) {
            stop("pod " + servedUid + " was replaced by " + pod.getMetadata().getUid());
        }
        agent.configure(RenderedConfigs.onThisHost(NodeAgentConfigYaml.read(config), node, host.kubeletCgroupRoot()));
        agent.start();
        agent.awaitReady(READY);
        servedUid = pod.getMetadata().getUid();
    }

    private synchronized void stopIfPodGone() {
        try {
            if (servedUid == null || !agent.isAlive()) {
                return;
            }
            Optional<Pod> served = AgentPods.current(cp.client(), node)
                    .filter(p -> servedUid.equals(p.getMetadata().getUid()));
            if (served.isEmpty()) {
                stop("its pod " + servedUid + " is being deleted");
            }
        } catch (Exception e) {
            // The API server may be busy; look again at the next tick.
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void stop(String why) throws IOException, InterruptedException {
        int exit = agent.terminate(STOP);
        if (exit != SIGTERM_EXIT) {
            problems.add("the agent stopped (" + why + ") with exit code " + exit + ", not " + SIGTERM_EXIT + ":\n"
                    + agent.logTail());
        }
        servedUid = null;
    }

    /** The ConfigMap's config file once it is the one the pod's template hashed (the operator writes it first). */
    private Optional<String> renderedConfigFor(Pod pod) {
        Optional<String> wanted = Optional.ofNullable(pod.getMetadata().getAnnotations())
                .map(a -> a.get(AgentRender.CONFIG_HASH_ANNOTATION));
        if (wanted.isEmpty()) {
            return Optional.empty();
        }
        ConfigMap cm = cp.client()
                .configMaps()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(AgentRender.objectName(HelmJourneyScenario.POLICY))
                .get();
        return Optional.ofNullable(cm)
                .map(ConfigMap::getData)
                .map(d -> d.get(AgentRender.CONFIG_KEY))
                .filter(text -> sha256(text).equals(wanted.get()));
    }

    /** The operator's config hash: {@code sha256:} and the hex digest of the file's UTF-8 bytes. */
    private static String sha256(String text) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(
                                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops watching; SIGKILL for a process still running (the host's close then removes its containers). */
    @Override
    public void close() throws InterruptedException {
        watch.shutdownNow();
        watch.awaitTermination(10, TimeUnit.SECONDS);
        agent.close();
    }
}
