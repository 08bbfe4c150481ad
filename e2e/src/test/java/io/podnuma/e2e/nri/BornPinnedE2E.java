package io.podnuma.e2e.nri;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.Commands;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.prometheus.PrometheusText;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Born pinned, on the real node (kubelet 1.37 + containerd 2.4 with NRI): the agent runs as an NRI plugin and answers
 * each CreateContainer with the container's CPUs, so the workload's first action (reading its own
 * {@code Cpus_allowed_list}) already sees them, over hundreds of container starts; then the agent restarted, containerd
 * restarted, the agent frozen (the runtime's request timeout, then fail-open and the cgroup path), the agent absent (containers start unpinned and the cgroup path pins them once it is back), a pod that
 * requires the plugin (created only once the agent is there: fail-closed), containerd requiring the plugin of every
 * container (the agent's own pod tolerates it by annotation), and the same churn on the cgroup path, whose
 * born-unpinned count is the window NRI closes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BornPinnedE2E {

    private static final String NS = "born";
    // 3 pods (60 starts a path) in the test run, to keep CI's warm run under 20 minutes; the born bench
    // (BENCH_ONLY=born scripts/bench) passes its own count, 10 by default.
    private static final int PODS = Integer.getInteger("podnuma.born.pods", 3);
    private static final int INITS = Integer.getInteger("podnuma.born.inits", 1);
    private static final int SHORTS = Integer.getInteger("podnuma.born.shorts", 6);
    private static final Duration CONNECTED = Duration.ofSeconds(60);

    @TempDir
    static Path workDir;

    private RealNode node;
    private LocalControlPlane plane;
    private RealNodeAgent agent;
    private BirthChurn churn;
    private final List<String> figures = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        RealNode.assumeAvailable(BornPinnedE2E.class);
        Optional<String> noImages = RealNodeAgent.whyNoImages();
        noImages.ifPresent(why -> System.err.println("[BornPinnedE2E] skipped: " + why));
        Assumptions.assumeTrue(noImages.isEmpty(), () -> noImages.orElse(""));
        CpuList cpus = CpuList.parse(Files.readString(Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus")));
        Assumptions.assumeTrue(cpus.size() >= 2, "the policy reserves CPU 0 and pins pods to another; only " + cpus);
        // The default validator on, with no plugin required of every container: only pods that ask for podnuma
        // (annotation required-plugins.noderesource.dev) are refused while it is not connected.
        node = RealNode.startWithPlane(RealNodeOptions.defaults()
                .withImages(RealNodeAgent.images())
                .withNriValidation(RealNodeOptions.NriValidation.requiring(List.of())));
        plane = node.plane();
        plane.ensureNamespace(NS);
        RealNodeAgent.select(plane, node, "born");
        agent = RealNodeAgent.deploy(
                plane,
                node,
                workDir,
                "born",
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false),
                Map.of(
                        "agent-pinning",
                        "nri",
                        "agent-nri-socket",
                        node.nriSocket().toString()));
        agent.awaitReady(Optional.empty());
        awaitNriConnected();
        churn = new BirthChurn(plane, node, NS, cpus.minus(CpuList.of(0)));
    }

    @AfterAll
    void stop() throws Exception {
        figures.forEach(f -> System.err.println("[BornPinnedE2E] " + f));
        try {
            if (agent != null) {
                agent.close();
            }
        } finally {
            if (node != null) {
                node.close();
            }
        }
    }

    /** A failed case leaves no pod behind to hold the node's one free CPU and fail every case after it. */
    @AfterEach
    void deleteLeftPods() throws InterruptedException {
        if (churn != null) {
            churn.deleteAll();
        }
    }

    @Test
    @Order(1)
    void withNriEveryContainerIsBornOnItsCpus() throws Exception {
        BirthChurn.Tally t = churn.run("nri", PODS, INITS, SHORTS);
        figures.add("nri: " + t.summary());
        assertEveryStartBornPinned(t, PODS);
        assertThat(counter("podnuma_nri_requests_total", Map.of("method", "CreateContainer", "result", "pinned")))
                .isGreaterThanOrEqualTo(t.count());
    }

    @Test
    @Order(2)
    void afterAnAgentRestartItRegistersAgainAndContainersAreStillBornPinned() throws Exception {
        long t0 = System.nanoTime();
        agent.restart();
        awaitNriConnected();
        figures.add("agent restart → NRI connected again in " + millisSince(t0) + " ms");
        assertEveryStartBornPinned(churn.run("restarted", 1, INITS, SHORTS), 1);
    }

    @Test
    @Order(3)
    void afterAContainerdRestartTheAgentReconnectsAndContainersAreStillBornPinned() throws Exception {
        double reconnectsBefore = counter("podnuma_nri_connections_total", Map.of());
        Duration restart = node.restartContainerd();
        long t0 = System.nanoTime();
        awaitNriConnected();
        awaitCounterAbove("podnuma_nri_connections_total", reconnectsBefore);
        figures.add("containerd restart took " + restart.toMillis() + " ms; the agent was connected again "
                + millisSince(t0) + " ms later");
        assertEveryStartBornPinned(churn.run("containerd", 1, INITS, SHORTS), 1);
    }

    @Test
    @Order(4)
    void aFrozenAgentCostsAContainerAtMostTheRuntimesTimeoutAndItIsPinnedOnceTheAgentRuns() throws Exception {
        long pid = agentPid();
        double connections = counter("podnuma_nri_connections_total", Map.of());
        Commands.run(List.of("kill", "-STOP", Long.toString(pid)), Map.of(), null, Duration.ofSeconds(10))
                .assertSuccess();
        Pod running;
        long frozenFor;
        long t0 = System.nanoTime();
        try {
            // containerd waits its request timeout (2 s) for the frozen plugin, then creates the container unpinned.
            Pod pod = churn.create("frozen", 0, 0, Map.of());
            running = churn.awaitRunning(pod.getMetadata().getName());
        } finally {
            frozenFor = millisSince(t0);
            Commands.run(List.of("kill", "-CONT", Long.toString(pid)), Map.of(), null, Duration.ofSeconds(10))
                    .assertSuccess();
        }
        List<WorkloadPods.Affinity> before = churn.appReports(running);
        assertThat(churn.onPodCpus(before.get(0)))
                .as("fail-open: born as the runtime made it")
                .isFalse();
        long t1 = System.nanoTime();
        List<WorkloadPods.Affinity> after = churn.awaitAppOnPodCpus(running);
        long pinnedAfter = millisSince(t1);
        awaitCounterAbove("podnuma_nri_connections_total", connections);
        awaitNriConnected();
        figures.add("agent frozen (SIGSTOP): the pod ran " + frozenFor + " ms after it was created (containerd's"
                + " 2 s request timeout, then unpinned: " + before.get(0).cpus() + "); " + pinnedAfter
                + " ms after SIGCONT the container was on "
                + after.get(after.size() - 1).cpus()
                + " and the agent registered again");
        churn.delete(running);
    }

    @Test
    @Order(5)
    void withTheAgentAbsentContainersStartUnpinnedAndTheCgroupPathPinsThemOnceItIsBack() throws Exception {
        agent.removeAgent();
        Pod pod = churn.create("absent", 0, 0, Map.of());
        Pod running = churn.awaitRunning(pod.getMetadata().getName());
        List<WorkloadPods.Affinity> before = churn.appReports(running);
        assertThat(churn.onPodCpus(before.get(0)))
                .as("no agent: born on whatever the runtime gave, " + before.get(0))
                .isFalse();
        long t0 = System.nanoTime();
        agent.restoreAgent();
        List<WorkloadPods.Affinity> after = churn.awaitAppOnPodCpus(running);
        figures.add("agent absent: born on " + before.get(0).cpus() + ", moved to " + after.get(after.size() - 1) + " "
                + millisSince(t0) + " ms after the agent was started again");
        churn.delete(running);
        awaitNriConnected();
    }

    @Test
    @Order(6)
    void aPodThatRequiresThePluginIsNotStartedUntilTheAgentIsConnected() throws Exception {
        RefusedWhileAway r = refusedWhileAway("required", 1, 2, Map.of(BirthChurn.REQUIRED_PLUGINS, "[\"podnuma\"]"));
        // The pod's one init container, two short ones and the app: each started once the agent was back.
        assertThat(r.births())
                .extracting(BirthChurn.Birth::container)
                .containsExactly("init-00", "short-00", "short-01", "app");
        figures.add("fail-closed: refused with '" + r.refusal() + "'; started " + r.startedAfterMillis()
                + " ms after the agent came back (the kubelet's retry backoff), births " + r.births());
    }

    @Test
    @Order(7)
    void withThePluginRequiredOfEveryContainerOnlyTheAgentsTaggedPodStartsWithoutIt() throws Exception {
        // The agent's own pods carry the validator's toleration; then containerd requires podnuma of every container.
        agent.reconfigure(Map.of("agent-pod-annotations", "{\"" + RealNode.NRI_TOLERATE_ANNOTATION + "\":\"true\"}"));
        awaitNriConnected();
        double connections = counter("podnuma_nri_connections_total", Map.of());
        node.restartContainerd(RealNodeOptions.NriValidation.requiring(List.of("podnuma")));
        awaitCounterAbove("podnuma_nri_connections_total", connections);
        awaitNriConnected();
        BirthChurn.Tally t = churn.run("required-all", 1, INITS, SHORTS);
        assertEveryStartBornPinned(t, 1);

        // Restored, the agent's pod starts although no plugin is connected: it tolerates the missing plugin (it is it).
        RefusedWhileAway r = refusedWhileAway("refused-all", 0, 0, Map.of());
        assertThat(r.births()).extracting(BirthChurn.Birth::container).containsExactly("app");
        figures.add("required_plugins = [\"podnuma\"]: " + t.summary() + "; without the agent a plain pod was refused,"
                + " the agent's own pod started (toleration annotation) and the pod ran " + r.startedAfterMillis()
                + " ms after the agent was started again, born on "
                + r.births().get(0).first().cpus());

        connections = counter("podnuma_nri_connections_total", Map.of());
        node.restartContainerd(RealNodeOptions.NriValidation.requiring(List.of()));
        awaitCounterAbove("podnuma_nri_connections_total", connections);
    }

    @Test
    @Order(8)
    void onTheCgroupPathTheSameChurnShowsTheWindow() throws Exception {
        agent.reconfigure(Map.of("agent-pinning", "cgroup"));
        BirthChurn.Tally t = churn.run("cgroup", PODS, INITS, SHORTS);
        figures.add("cgroup: " + t.summary());
        assertThat(t.count()).isEqualTo(PODS * (INITS + SHORTS + 1));
        assertThat(counter("podnuma_nri_connected", Map.of()))
                .as("cgroup: no NRI connection")
                .isZero();
    }

    /**
     * Every container of {@code pods} churn pods started (an init, the shorts and the app each) and was born on its
     * pod's CPUs; the count first, since no unpinned start is also what a churn that started nothing reports.
     */
    private static void assertEveryStartBornPinned(BirthChurn.Tally t, int pods) {
        assertThat(t.count()).as("container starts: " + t.summary()).isEqualTo(pods * (INITS + SHORTS + 1));
        assertThat(t.unpinned())
                .as("with the agent connected, every container starts, born pinned")
                .isEmpty();
    }

    /** What a pod created while the agent was away went through: its refusal, then its start once the agent was back. */
    record RefusedWhileAway(String refusal, long startedAfterMillis, List<BirthChurn.Birth> births) {}

    /**
     * Takes the agent away, creates a churn pod (refused: the plugin is required of it), brings the agent back and
     * waits for the pod to run with every container born on its pod's CPUs; deletes it.
     */
    private RefusedWhileAway refusedWhileAway(String name, int inits, int shorts, Map<String, String> annotations)
            throws Exception {
        agent.removeAgent();
        Pod pod = churn.create(name, inits, shorts, annotations);
        String refusal = awaitCreateContainerError(pod.getMetadata().getName());
        assertThat(refusal).contains("required plugin").contains("podnuma");
        long t0 = System.nanoTime();
        agent.restoreAgent();
        awaitNriConnected();
        Pod running = churn.awaitRunning(pod.getMetadata().getName());
        List<BirthChurn.Birth> births = churn.births(running);
        long started = millisSince(t0);
        // An empty list would pass the pinning check with nothing started: count first.
        assertThat(births).as("births of " + name).hasSize(inits + shorts + 1);
        assertThat(births)
                .allSatisfy(b -> assertThat(churn.onPodCpus(b.first()))
                        .as("%s/%s born on its pod's CPUs: %s", b.pod(), b.container(), b.first())
                        .isTrue());
        churn.delete(running);
        return new RefusedWhileAway(refusal, started, births);
    }

    private void awaitNriConnected() throws Exception {
        long deadline = System.nanoTime() + CONNECTED.toNanos();
        while (counter("podnuma_nri_connected", Map.of()) != 1.0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the agent did not connect to containerd's NRI socket within " + CONNECTED
                        + "\n" + agent.logs());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private void awaitCounterAbove(String name, double floor) throws Exception {
        long deadline = System.nanoTime() + CONNECTED.toNanos();
        while (counter(name, Map.of()) <= floor) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " stayed at " + floor + "\n" + agent.logs());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** The sum of a metric's samples whose labels contain {@code labels} (0 when absent or unreachable). */
    private double counter(String name, Map<String, String> labels) {
        try {
            return PrometheusText.parse(agent.metrics()).sum(name, labels);
        } catch (Exception e) {
            return 0;
        }
    }

    private String awaitCreateContainerError(String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            Pod p = plane.client().pods().inNamespace(NS).withName(name).get();
            List<ContainerStatus> statuses = new ArrayList<>();
            if (p != null && p.getStatus() != null) {
                if (p.getStatus().getInitContainerStatuses() != null) {
                    statuses.addAll(p.getStatus().getInitContainerStatuses());
                }
                if (p.getStatus().getContainerStatuses() != null) {
                    statuses.addAll(p.getStatus().getContainerStatuses());
                }
            }
            for (ContainerStatus s : statuses) {
                if (s.getState() != null
                        && s.getState().getWaiting() != null
                        && "CreateContainerError"
                                .equals(s.getState().getWaiting().getReason())) {
                    return s.getState().getWaiting().getMessage();
                }
                assertThat(s.getState() == null || s.getState().getRunning() == null)
                        .as("no container of a pod that requires podnuma runs without it: " + s)
                        .isTrue();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("pod " + name + " was never refused: " + (p == null ? "gone" : p.getStatus()));
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /** The host pid of the agent container's process (its JVM). */
    private long agentPid() {
        Pod pod = agent.pod().orElseThrow(() -> new AssertionError("no agent pod"));
        String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
        return node.containerPid(id).orElseThrow(() -> new AssertionError("no running task for " + id));
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
