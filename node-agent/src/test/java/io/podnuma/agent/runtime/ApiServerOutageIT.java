package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podnuma.agent.runtime.CrashTestSetup.Kind;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code node-agent run} as a process while kube-apiserver is stopped for 15 s: the containers of pods it already
 * knows start meanwhile and are pinned (asserted while the API server is down), as fast as with it; once the API
 * server is back the agent catches up: a pod created after the outage is pinned and {@code NumaNodeState} is
 * written again.
 */
@ExtendWith(ControlPlaneExtension.class)
class ApiServerOutageIT {

    static final Duration OUTAGE = Duration.ofSeconds(15);
    static final CpuList EXCLUSIVE = CpuList.of(1);
    static final CpuList SHARED = CpuList.of(0);

    @TempDir
    Path dir;

    private ControlPlane cp;
    private KubeletLikeHost host;
    private AgentProcess agent;
    private String node;
    private String ns;

    @BeforeAll
    static void crds(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaNodeStates());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (cp != null) {
            cp.startApiServer(); // whatever happened, the next test class needs it
        }
        if (agent != null) {
            agent.close();
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void pinsKnownPodsWhileTheApiServerIsAwayAndCatchesUpAfter(ControlPlane cp) throws Exception {
        startAgent(cp, "outage");

        // Pods bound to the node before the outage: the agent decides (trader gets CPU 1, worker is refused)
        // before any of their containers exists.
        Map<String, Kind> before = new TreeMap<>(Map.of(
                "trader", Kind.POD_BUDGET,
                "web", Kind.BURSTABLE,
                "worker", Kind.CPU_CONTAINER,
                "batch", Kind.BURSTABLE));
        Map<String, Map<String, PodContainer>> containers = new TreeMap<>();
        before.forEach((name, kind) -> create(kind, name));
        before.keySet().forEach(name -> containers.put(name, running(name)));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(podResources())
                        .as("what PodResources says before the outage: pod → CPU 1 held")
                        .isEqualTo(Map.of("trader", true, "web", false, "worker", false, "batch", false)));
        NumaNodeState stateBefore = await().atMost(Duration.ofSeconds(30))
                .until(this::numaNodeState, s -> s != null && allocated(s).contains("trader"));

        // The outage.
        long t0 = System.nanoTime();
        cp.stopApiServer();
        long stopped = System.nanoTime();
        System.out.printf("kube-apiserver stopped in %d ms%n", (stopped - t0) / 1_000_000);
        assertThatThrownBy(() ->
                        cp.client().pods().inNamespace(ns).withName("trader").get())
                .as("the API server answers nothing")
                .isInstanceOf(KubernetesClientException.class);
        double pinsBefore = agent.metric("podnuma_pin_latency_seconds_count");

        Map<String, CpuList> want = Map.of("trader", EXCLUSIVE, "web", SHARED, "worker", SHARED, "batch", SHARED);
        Map<String, Long> pids = new TreeMap<>();
        List<Long> latencyMicros = new ArrayList<>();
        for (Map.Entry<String, Map<String, PodContainer>> pod : containers.entrySet()) {
            for (Map.Entry<String, PodContainer> c : pod.getValue().entrySet()) {
                long pid = host.startContainer(c.getValue());
                long started = System.nanoTime();
                pids.put(pod.getKey() + "/" + c.getKey(), pid);
                latencyMicros.add(awaitAllowed(pid, want.get(pod.getKey()), Duration.ofSeconds(5)) - started);
            }
        }
        latencyMicros.replaceAll(n -> n / 1000);
        // Pinned, and staying so for the rest of the outage (the reconcile tick runs without the API server too).
        long outageEnd = stopped + OUTAGE.toNanos();
        int checks = 0;
        do {
            for (Map.Entry<String, Long> p : pids.entrySet()) {
                CpuList w = want.get(p.getKey().substring(0, p.getKey().indexOf('/')));
                assertThat(KubeletLikeHost.allowedCpus(p.getValue()))
                        .as("Cpus_allowed_list of %s during the outage", p.getKey())
                        .isEqualTo(w);
            }
            checks++;
            assertThat(cp.apiServerRunning()).as("still in the outage").isFalse();
            assertThat(agent.isAlive()).isTrue();
            TimeUnit.MILLISECONDS.sleep(500);
        } while (System.nanoTime() < outageEnd);
        double pinsDuring = agent.metric("podnuma_pin_latency_seconds_count") - pinsBefore;
        assertThat(pinsDuring).as("pins the agent counted during the outage").isEqualTo(pids.size());

        // The API server comes back; the agent catches up.
        t0 = System.nanoTime();
        cp.startApiServer();
        long back = System.nanoTime();
        System.out.printf(
                "kube-apiserver away for %d ms, ready again %d ms after its start%n",
                (back - stopped) / 1_000_000, (back - t0) / 1_000_000);
        create(Kind.BURSTABLE, "after");
        Map<String, PodContainer> after = running("after");
        long afterPid = host.startContainer(after.get("web"));
        long afterStarted = System.nanoTime();
        awaitAllowed(afterPid, SHARED, Duration.ofSeconds(60));
        long caughtUp = System.nanoTime();
        NumaNodeState stateAfter = await().atMost(Duration.ofSeconds(60))
                .until(this::numaNodeState, s -> s != null && allocated(s).contains("after"));
        long written = System.nanoTime();
        assertThat(stateAfter.getMetadata().getResourceVersion())
                .isNotEqualTo(stateBefore.getMetadata().getResourceVersion());
        assertThat(allocated(stateAfter)).contains("trader", "web", "batch", "after");
        assertThat(stateAfter.getStatus().sharedPool()).isEqualTo(SHARED.toString());
        assertThat(podResources())
                .isEqualTo(Map.of("trader", true, "web", false, "worker", false, "batch", false, "after", false));
        for (Map.Entry<String, Long> p : pids.entrySet()) {
            assertThat(KubeletLikeHost.allowedCpus(p.getValue()))
                    .as("Cpus_allowed_list of %s after the outage", p.getKey())
                    .isEqualTo(want.get(p.getKey().substring(0, p.getKey().indexOf('/'))));
        }
        String log = agent.lastLog();
        assertThat(log).doesNotContain("handling ").doesNotContain("Exception in thread");

        String metrics = agent.metrics();
        System.out.printf(
                "ApiServerOutageIT: %d containers of %d known pods started during a %d s outage, checked %d times;"
                        + " pin latency seen by the test (container started → Cpus_allowed_list changed, µs): %s;"
                        + " agent's pin latency histogram: count %.0f, sum %.6f s; after the API server"
                        + " was back: a new pod's container pinned %d ms after it started (%d ms after the API server"
                        + " was ready), NumaNodeState written %d ms after the API server was ready%n",
                pids.size(),
                containers.size(),
                OUTAGE.toSeconds(),
                checks,
                latencyMicros,
                PrometheusText.sampleValue(metrics, "podnuma_pin_latency_seconds_count"),
                PrometheusText.sampleValue(metrics, "podnuma_pin_latency_seconds_sum"),
                (caughtUp - afterStarted) / 1_000_000,
                (caughtUp - back) / 1_000_000,
                (written - back) / 1_000_000);
    }

    /**
     * An agent killed and started again while the API server is away cannot list its pods, so it is not ready, but
     * it has its checkpoint: containers of the pods it holds get their assignments, every other container (here a
     * Guaranteed pod it refused, so not in the checkpoint) the shared pool, so CPU 1 stays the trader's alone.
     */
    @Test
    void anAgentRestartedDuringTheOutagePinsFromItsCheckpoint(ControlPlane cp) throws Exception {
        startAgent(cp, "outage-restart");
        Map<String, Kind> before = new TreeMap<>(Map.of(
                "trader", Kind.CPU_CONTAINER,
                "web", Kind.BURSTABLE,
                "worker", Kind.POD_BUDGET));
        before.forEach((name, kind) -> create(kind, name));
        Map<String, Map<String, PodContainer>> containers = new TreeMap<>();
        before.keySet().forEach(name -> containers.put(name, running(name)));
        // trader is created first, so it is admitted first and worker is refused.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(podResources()).isEqualTo(Map.of("trader", true, "web", false, "worker", false)));

        cp.stopApiServer();
        agent.kill9();
        long restarted = System.nanoTime();
        agent.start();
        Map<String, CpuList> want = Map.of("trader", EXCLUSIVE, "web", SHARED, "worker", SHARED);
        Map<String, Long> pids = new TreeMap<>();
        List<Long> latencyMicros = new ArrayList<>();
        for (Map.Entry<String, Map<String, PodContainer>> pod : containers.entrySet()) {
            for (Map.Entry<String, PodContainer> c : pod.getValue().entrySet()) {
                long pid = host.startContainer(c.getValue());
                long started = System.nanoTime();
                pids.put(pod.getKey() + "/" + c.getKey(), pid);
                latencyMicros.add((awaitAllowed(pid, want.get(pod.getKey()), Duration.ofSeconds(30)) - started) / 1000);
            }
        }
        assertThat(cp.apiServerRunning()).as("still in the outage").isFalse();
        assertThat(agent.metric("podnuma_pin_latency_seconds_count"))
                .as("pins the restarted agent counted")
                .isEqualTo(pids.size());
        long pinned = System.nanoTime();

        // SIGTERM while the API server is away: the agent cannot ask whether the node left podnuma, so it keeps every
        // pin, and it stops within the kubelet's default grace period (30 s) instead of waiting for the client's
        // retries.
        long term = System.nanoTime();
        assertThat(agent.terminate(Duration.ofSeconds(30))).isEqualTo(143);
        long stoppedMillis = (System.nanoTime() - term) / 1_000_000;
        assertThat(agent.lastLog()).contains("keeping the pins").contains("the pins stay for the next agent");
        for (Map.Entry<String, Long> p : pids.entrySet()) {
            assertThat(KubeletLikeHost.allowedCpus(p.getValue()))
                    .as("Cpus_allowed_list of %s after SIGTERM in the outage", p.getKey())
                    .isEqualTo(want.get(p.getKey().substring(0, p.getKey().indexOf('/'))));
        }
        agent.start();

        cp.startApiServer();
        long back = System.nanoTime();
        agent.awaitReady(Duration.ofSeconds(90));
        long ready = System.nanoTime();
        for (Map.Entry<String, Long> p : pids.entrySet()) {
            assertThat(KubeletLikeHost.allowedCpus(p.getValue()))
                    .as("Cpus_allowed_list of %s once the agent is ready", p.getKey())
                    .isEqualTo(want.get(p.getKey().substring(0, p.getKey().indexOf('/'))));
        }
        assertThat(podResources()).isEqualTo(Map.of("trader", true, "web", false, "worker", false));
        assertThat(agent.lastLog()).doesNotContain("handling ").doesNotContain("Exception in thread");
        System.out.printf(
                "ApiServerOutageIT (restart during the outage): %d containers pinned by the restarted agent before it"
                        + " could list a pod, %d ms after its start; pin latency seen by the test (µs): %s; ready %d ms"
                        + " after the API server was back; SIGTERM in the outage: stopped after %d ms, pins kept%n",
                pids.size(),
                (pinned - restarted) / 1_000_000,
                latencyMicros,
                (ready - back) / 1_000_000,
                stoppedMillis);
    }

    private void startAgent(ControlPlane cp, String prefix) throws Exception {
        this.cp = cp;
        host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD);
        Assumptions.assumeTrue(
                host.cpus().equals(CpuList.of(0, 1)), "written for a host with CPUs 0-1, this one has " + host.cpus());
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        node = cp.ensureNode(
                prefix + "-" + suffix,
                Map.of("podnuma.io/policy", CrashTestSetup.POLICY),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        ns = prefix + "-" + suffix;
        cp.kubectl("create", "namespace", ns).assertSuccess();
        agent = AgentProcess.withConfig(dir, CrashTestSetup.agentConfig(node, host.root()), cp.kubeconfig());
        agent.start();
        agent.awaitReady(Duration.ofSeconds(90));
    }

    private void create(Kind kind, String name) {
        cp.client()
                .pods()
                .inNamespace(ns)
                .resource(CrashTestSetup.pod(kind, node, name))
                .create();
    }

    /** Waits until kwok reports the pod Running with container IDs; returns its containers' cgroups. */
    private Map<String, PodContainer> running(String name) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> CrashTestSetup.containers(cp.client()
                                .pods()
                                .inNamespace(ns)
                                .withName(name)
                                .get()),
                        Optional::isPresent)
                .orElseThrow();
    }

    /** Polls {@code Cpus_allowed_list} every 200 µs; returns {@link System#nanoTime()} when it is {@code want}. */
    private long awaitAllowed(long pid, CpuList want, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        CpuList seen;
        do {
            seen = KubeletLikeHost.allowedCpus(pid);
            if (seen.equals(want)) {
                return System.nanoTime();
            }
            TimeUnit.MICROSECONDS.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("process " + pid + " runs on CPUs " + seen + ", not " + want + ", after " + timeout
                + "; the agent's log:\n" + agent.lastLog());
    }

    private NumaNodeState numaNodeState() {
        return cp.client().resources(NumaNodeState.class).withName(node).get();
    }

    private static List<String> allocated(NumaNodeState s) {
        return s.getStatus() == null
                ? List.of()
                : s.getStatus().allocations().stream().map(PodAllocation::name).toList();
    }

    /** Pod name → whether PodResources gives it CPU 1 (pod-level or in a container). */
    private Map<String, Boolean> podResources() {
        var channel = DomainSocketChannels.open(agent.socket());
        try {
            return PodResourcesListerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS)
                    .list(ListPodResourcesRequest.getDefaultInstance())
                    .getPodResourcesList()
                    .stream()
                    .collect(Collectors.toMap(PodResources::getName, ApiServerOutageIT::onCpu1));
        } finally {
            channel.shutdownNow();
        }
    }

    private static boolean onCpu1(PodResources r) {
        return r.getCpuIdsList().contains(1L)
                || r.getContainersList().stream()
                        .anyMatch(c -> c.getCpuIdsList().contains(1L));
    }
}
