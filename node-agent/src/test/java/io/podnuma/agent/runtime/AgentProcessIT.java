package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.grpc.ManagedChannel;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.logs.LogLines;
import io.podnuma.testkit.metrics.MetricsScrapers;
import io.podnuma.testkit.metrics.SecureScrape;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.JvmProcessSeries;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code node-agent run} as a real process: it finds this machine's cgroup v1 hierarchy from the mount table (under
 * a private kubelet cgroup root), notices new container cgroups through inotify with nobody telling it, pins the
 * real processes, serves PodResources on its socket, metrics and readiness over HTTP, writes NumaNodeState; on
 * SIGTERM it keeps the pins while the node is labelled for its policy and restores everything once it is not.
 */
@ExtendWith(ControlPlaneExtension.class)
class AgentProcessIT {

    @TempDir
    Path dir;

    private KubeletLikeHost host;
    private AgentProcess agent;

    @BeforeAll
    static void crds(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaNodeStates(), GeneratedCrds.nodeResourceTopologies());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void pinsWhatItFindsServesEverythingAndRestoresWhenTheNodeLeaves(ControlPlane cp) throws Exception {
        host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD);
        org.junit.jupiter.api.Assumptions.assumeTrue(
                host.cpus().equals(CpuList.of(0, 1)), "written for a host with CPUs 0-1, this one has " + host.cpus());
        String node = cp.ensureNode(
                "agent-proc-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of("podnuma.io/policy", "it-policy"),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        String ns = "agent-proc-" + UUID.randomUUID().toString().substring(0, 8);
        cp.kubectl("create", "namespace", ns).assertSuccess();
        agent = AgentProcess.withConfig(
                dir,
                SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0"))
                        .policyName("it-policy")
                        .kubeletCgroupRoot("/" + host.root().getFileName())
                        .reconcilePeriod("1s")
                        .statusMinInterval("200ms")
                        .policy(SampleConfigs.podScopePolicy(
                                SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, true))
                        .build(),
                cp.kubeconfig());
        Instant started = Instant.now();
        agent.start();
        Duration ready = agent.awaitReady(Duration.ofSeconds(60));
        System.out.println("agent process ready after " + ready.toMillis() + " ms");
        // Its own memory, CPU and JVM as the kernel sees them, under the DaemonSet's flags (node-agent/jvm.flags).
        PrometheusText own = JvmProcessSeries.check(agent.pid(), started, agent::metrics);
        assertThat(JvmProcessSeries.labelValues(own, "jvm_gc_collection_seconds_count", "gc"))
                .as("-XX:+UseSerialGC")
                .containsExactly("Copy", "MarkSweepCompact");
        assertThat(own.value("jvm_memory_max_bytes", Map.of("area", "heap")))
                .as("-Xmx64m")
                .isBetween(32.0 * 1024 * 1024, 64.0 * 1024 * 1024);

        Pod trader = RunningPods.createRunning(cp, ns, SamplePods.budgeted(node, "trader"));
        Pod web = RunningPods.createRunning(cp, ns, SamplePods.burstable(node, "web"));
        Map<String, Long> pids = new TreeMap<>();
        pids.putAll(start(trader));
        pids.putAll(start(web));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(KubeletLikeHost.allowedCpus(pids.get("trader/engine"))).isEqualTo(CpuList.of(1));
            assertThat(KubeletLikeHost.allowedCpus(pids.get("trader/proxy"))).isEqualTo(CpuList.of(1));
            assertThat(KubeletLikeHost.allowedCpus(pids.get("web/web"))).isEqualTo(CpuList.of(0));
        });
        assertThat(agent.metric("podnuma_pin_latency_seconds_count")).isGreaterThanOrEqualTo(3);

        ManagedChannel channel = DomainSocketChannels.open(agent.socket());
        try {
            ListPodResourcesResponse list =
                    PodResourcesListerGrpc.newBlockingStub(channel).list(ListPodResourcesRequest.getDefaultInstance());
            PodResources p = list.getPodResourcesList().stream()
                    .filter(r -> r.getName().equals("trader"))
                    .findFirst()
                    .orElseThrow();
            assertThat(p.getCpuIdsList()).as("pod-level cpu_ids: the bubble").containsExactly(1L);
        } finally {
            channel.shutdownNow();
        }
        assertThat(Files.getPosixFilePermissions(agent.socket()))
                .containsExactlyInAnyOrder(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(agent.metrics()).contains("podnuma_podresources_requests_total{code=\"OK\",method=\"List\"} 1.0");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(cp.client()
                                .resources(NumaNodeState.class)
                                .withName(node)
                                .get())
                        .isNotNull());
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(cp.kubectl(
                                        "get",
                                        "noderesourcetopologies.topology.node.k8s.io",
                                        node,
                                        "-o",
                                        "jsonpath={.zones[0].name} {.attributes[?(@.name==\"topologyManagerScope\")].value}"
                                                + " {.zones[0].resources[?(@.name==\"cpu\")].available}")
                                .assertSuccess()
                                .stdout())
                        .as(
                                "NodeResourceTopology: zone, scope, available CPUs (2 - reserved 1 - bubble 1; web asks for memory only)")
                        .isEqualTo("node-0 pod 0"));

        // A rolling update: SIGTERM while the node is still labelled keeps every pin and the checkpoint.
        assertThat(agent.terminate(Duration.ofSeconds(30))).as("128 + SIGTERM").isEqualTo(143);
        assertThat(agent.lastLog()).contains("the pins stay for the next agent").contains("stopped");
        assertThat(KubeletLikeHost.allowedCpus(pids.get("trader/engine"))).isEqualTo(CpuList.of(1));
        assertThat(agent.checkpoint()).exists();

        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
        assertThat(KubeletLikeHost.allowedCpus(pids.get("web/web"))).isEqualTo(CpuList.of(0));
        // The pod list is asked for first and may be synced early; ready still waits for every endpoint and the
        // cgroup watch, so the drift below is seen.
        // /readyz answers as the agent becomes ready; the line saying so may reach the log a moment later.
        String restartLog = Waits.await(Duration.ofSeconds(10), "the agent's ready line in its log", () -> {
            try {
                return Optional.of(agent.lastLog()).filter(l -> l.contains("AgentDaemon - ready: "));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(restartLog.indexOf("AgentDaemon - serving"))
                .as("serving logged before ready:\n" + restartLog)
                .isNotNegative()
                .isLessThan(restartLog.indexOf("AgentDaemon - ready: "));

        // Someone moves web onto the trader's CPU: the write is reported by the watch on web's cgroup and repaired at
        // the next tick (1 s here), long before the full tick that reads every container (a minute).
        Path webCpus = host.dir(RunningPods.containers(web).get("web")).resolve("cpuset.cpus");
        Files.writeString(webCpus, "1");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(Files.readString(webCpus).trim()).isEqualTo("0");
            assertThat(KubeletLikeHost.allowedCpus(pids.get("web/web"))).isEqualTo(CpuList.of(0));
        });
        assertThat(agent.metric("podnuma_drift_repaired_total")).isEqualTo(1);

        // The node leaves the policy: SIGTERM now gives every container everything back and cleans up.
        cp.kubectl("label", "node", node, "podnuma.io/policy-").assertSuccess();
        assertThat(agent.terminate(Duration.ofSeconds(30))).isEqualTo(143);
        assertThat(agent.lastLog()).contains("has left podnuma").contains("stopped");
        for (long pid : pids.values()) {
            assertThat(KubeletLikeHost.allowedCpus(pid)).isEqualTo(CpuList.of(0, 1));
        }
        assertThat(agent.checkpoint()).doesNotExist();
        assertThat(cp.client().resources(NumaNodeState.class).withName(node).get())
                .isNull();
    }

    /**
     * {@code metricsSecurity: https} end to end: the agent serves a self-signed certificate and asks the real API
     * server about each new token; the probes stay plain HTTP on the health port.
     */
    @Test
    void httpsMetricsNeedATokenAllowedToGetMetrics(ControlPlane cp) throws Exception {
        host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD);
        String id = UUID.randomUUID().toString().substring(0, 8);
        String node = cp.ensureNode(
                "agent-tls-" + id,
                Map.of("podnuma.io/policy", "it-tls"),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        try (MetricsScrapers scrapers = MetricsScrapers.create(cp.client(), "agent-tls-" + id)) {
            agent = AgentProcess.withConfig(
                    dir,
                    SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0"))
                            .policyName("it-tls")
                            .kubeletCgroupRoot("/" + host.root().getFileName())
                            .metricsSecurity("https")
                            .build(),
                    cp.kubeconfig());
            agent.start();
            agent.awaitReady(Duration.ofSeconds(60));
            assertThat(List.of(agent.health("/healthz"), agent.health("/startupz"), agent.health("/readyz")))
                    .as("the probes' paths, plain HTTP")
                    .containsOnly(200);
            int port = agent.placement().metricsPort();
            assertThat(agent.lastLog()).contains("/metrics over https with a self-signed certificate made at start");
            assertThat(SecureScrape.certificate(port).getSubjectX500Principal().getName())
                    .isEqualTo("CN=podnuma-agent");

            HttpResponse<String> none = SecureScrape.get(port, null);
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"podnuma\"");
            HttpResponse<String> stranger = SecureScrape.get(port, scrapers.strangerToken());
            assertThat(stranger.statusCode()).isEqualTo(403);
            assertThat(stranger.body()).contains("user \"" + scrapers.strangerUser() + "\" may not get /metrics");
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> reader = SecureScrape.get(port, scrapers.readerToken());
                assertThat(reader.statusCode()).isEqualTo(200);
                assertThat(reader.body()).contains("# TYPE podnuma_");
            }
            assertThat(SecureScrape.plainHttp(port, scrapers.readerToken()))
                    .as("plain HTTP to the TLS port")
                    .doesNotContain("podnuma_")
                    .doesNotStartWith("HTTP/1.1 200");
        }
    }

    /**
     * The process follows its logLevel and logFormat: every line a timestamped record (text) or a JSON object, debug
     * lines shown at debug, info lines hidden at warn.
     */
    @Test
    void logsTimestampedTextOrJsonAtItsLevel(ControlPlane cp) throws Exception {
        host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD);
        String node = cp.ensureNode(
                "agent-log-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of("podnuma.io/policy", "it-log"),
                Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        var config = SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0"))
                .policyName("it-log")
                .kubeletCgroupRoot("/" + host.root().getFileName());
        agent = AgentProcess.withConfig(dir, config.build(), cp.kubeconfig());
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
        List<LogLines.Entry> text = LogLines.text(awaitLog("AgentDaemon - ready: "));
        assertThat(text).extracting(LogLines.Entry::level).doesNotContain("DEBUG", "TRACE");
        assertThat(text)
                .anySatisfy(e -> assertThat(e.logger()).isEqualTo("io.podnuma.agent.runtime.AgentDaemon"))
                .anySatisfy(e -> assertThat(e.message()).startsWith("ready: "));
        assertThat(agent.terminate(Duration.ofSeconds(30))).isEqualTo(143);

        agent.configure(config.logLevel("debug").logFormat("json").build());
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
        List<JsonNode> json = LogLines.json(awaitLog("\"message\":\"ready: "));
        assertThat(json)
                .anySatisfy(o -> {
                    assertThat(o.path("level").asText()).isEqualTo("DEBUG");
                    assertThat(o.path("logger").asText()).isEqualTo("io.podnuma.logging.Logs");
                    assertThat(o.path("message").asText()).isEqualTo("logging at debug as json");
                    assertThat(o.path("thread").asText()).isEqualTo("main");
                })
                .anySatisfy(o -> assertThat(o.path("message").asText()).startsWith("ready: "));
        assertThat(agent.terminate(Duration.ofSeconds(30))).isEqualTo(143);

        agent.configure(config.logLevel("warn").logFormat("text").build());
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
        assertThat(agent.terminate(Duration.ofSeconds(30))).isEqualTo(143);
        String warn = agent.lastLog();
        assertThat(LogLines.text(warn))
                .as("warn hides the info lines of a whole start and stop")
                .allSatisfy(e -> assertThat(e.level()).isIn("WARN", "ERROR"));
        assertThat(warn).doesNotContain("ready: ", "stopped");
    }

    /** The latest start's log once it holds {@code text}: /readyz may answer a moment before the line is written. */
    private String awaitLog(String text) throws InterruptedException {
        return Waits.await(Duration.ofSeconds(10), "\"" + text + "\" in the agent's log", () -> {
            try {
                return Optional.of(agent.lastLog()).filter(l -> l.contains(text));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** Starts the pod's containers the way containerd would; the agent is not told. */
    private Map<String, Long> start(Pod pod) throws Exception {
        Map<String, Long> pids = new TreeMap<>();
        for (var e : RunningPods.containers(pod).entrySet()) {
            pids.put(pod.getMetadata().getName() + "/" + e.getKey(), host.startContainer(e.getValue()));
        }
        return pids;
    }
}
