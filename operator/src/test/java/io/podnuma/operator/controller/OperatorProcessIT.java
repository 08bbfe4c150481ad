package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.KwokNodes;
import io.podnuma.controlplane.PrometheusApi;
import io.podnuma.controlplane.PrometheusServer;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.logs.LogLines;
import io.podnuma.testkit.metrics.MetricsScrapers;
import io.podnuma.testkit.metrics.SecureScrape;
import io.podnuma.testkit.operator.OperatorProcess;
import io.podnuma.testkit.prometheus.JvmProcessSeries;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shaded jar as the Deployment runs it: {@code operator run --config FILE}, two replicas under the operator's
 * ServiceAccount with leader election on a Lease. Checks health, metrics, a graceful SIGTERM and the failover.
 */
@ExtendWith(ControlPlaneExtension.class)
class OperatorProcessIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static KubernetesClient admin;
    private final List<OperatorProcess> replicas = new ArrayList<>();

    @BeforeAll
    static void prepare(ControlPlane plane) {
        admin = plane.client();
        OperatorFixture.prepare(plane).client.close();
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (OperatorProcess r : replicas) {
            r.close();
        }
    }

    @Test
    void twoReplicasShareTheWorkThroughTheLeaseAndTheSecondTakesOverAfterASigterm(
            ControlPlane plane, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        plane.ensureNode("cli-0", Map.of("podnuma.it/group", "cli"), KwokNodes.DEFAULT_ALLOCATABLE);
        plane.ensureNode("cli-1", Map.of("podnuma.it/group", "cli2"), KwokNodes.DEFAULT_ALLOCATABLE);
        Path config = dir.resolve("operator.yaml");
        Files.writeString(
                config,
                "namespace: " + OperatorFixture.NAMESPACE + "\nagentImage: podnuma/node-agent:it\n"
                        + "leaseName: podnuma-operator-it\nrestoreTimeout: 20s\n");
        Path kubeconfig = plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT);
        Instant started = Instant.now();
        OperatorProcess a = start("op-a", config, kubeconfig, dir);
        OperatorProcess b = start("op-b", config, kubeconfig, dir);

        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(a.health("/healthz")).isEqualTo(200);
            assertThat(b.health("/healthz")).isEqualTo(200);
            assertThat(holder()).isIn("op-a", "op-b");
        });
        OperatorProcess leader = holder().equals("op-a") ? a : b;
        OperatorProcess follower = leader == a ? b : a;

        policy("cli", "cli");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(label("cli-0")).isEqualTo("cli"));
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(leader.health("/readyz")).isEqualTo(200);
            String metrics = leader.metrics();
            assertThat(metrics)
                    .contains("podnuma_operator_nodes{policy=\"cli\",state=\"matched\"} 1.0")
                    .contains("operator_sdk_");
        });
        assertThat(follower.metrics()).doesNotContain("podnuma_operator_nodes{");
        // Each replica's own memory, CPU and JVM as the kernel sees them, under operator/jvm.flags (SerialGC).
        for (OperatorProcess replica : List.of(leader, follower)) {
            PrometheusText own = JvmProcessSeries.check(replica.pid(), started, replica::metrics);
            assertThat(JvmProcessSeries.labelValues(own, "jvm_gc_collection_seconds_count", "gc"))
                    .containsExactly("Copy", "MarkSweepCompact");
        }
        // Its informers sync on their own time (seconds on a loaded machine), hence a wait, not a look.
        await().atMost(TIMEOUT)
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(follower.health("/readyz"))
                        .as(
                                "a standby has its informers synced and is Ready, so a Deployment rollout of two replicas goes on")
                        .isEqualTo(200));

        // A SIGTERM stops the leader gracefully; the follower takes the Lease over and reconciles.
        // terminate fails with the log when it does not stop within 30 s.
        leader.terminate(Duration.ofSeconds(30));
        assertThat(leader.isAlive()).isFalse();
        // The default logFormat: every line a record with its UTC time, or a stack trace line below one.
        assertThat(LogLines.text(Files.readString(leader.log())))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.level()).isIn("INFO", "WARN", "ERROR"));
        policy("cli2", "cli2");
        await().atMost(TIMEOUT.plus(Duration.ofSeconds(30)))
                .untilAsserted(() -> assertThat(label("cli-1")).isEqualTo("cli2"));
        assertThat(holder()).isEqualTo(follower.replica());

        admin.resources(NumaResourcePolicy.class).withName("cli").delete();
        admin.resources(NumaResourcePolicy.class).withName("cli2").delete();
        await().atMost(TIMEOUT)
                .until(() -> admin.resources(NumaResourcePolicy.class)
                                .withName("cli2")
                                .get()
                        == null);
    }

    /** {@code --log-level debug --log-format json}: one JSON object a line, the debug lines among them. */
    @Test
    void logsJsonLinesAtDebug(ControlPlane plane, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        OperatorProcess op = OperatorProcess.start(
                dir,
                "op-json",
                plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT),
                Map.of(
                        "namespace", OperatorFixture.NAMESPACE,
                        "agent-image", "podnuma/node-agent:it",
                        "leader-election", "false",
                        "log-level", "debug",
                        "log-format", "json"));
        replicas.add(op);
        op.awaitReady(TIMEOUT);
        op.terminate(Duration.ofSeconds(30));
        List<JsonNode> lines = LogLines.json(Files.readString(op.log()));
        assertThat(lines)
                .anySatisfy(o -> {
                    assertThat(o.path("level").asText()).isEqualTo("DEBUG");
                    assertThat(o.path("logger").asText()).isEqualTo("io.podnuma.logging.Logs");
                    assertThat(o.path("message").asText()).isEqualTo("logging at debug as json");
                })
                .anySatisfy(o -> assertThat(o.path("level").asText()).isEqualTo("INFO"));
    }

    /**
     * {@code metricsSecurity: https} end to end, under the operator's own ServiceAccount with the two review rules the
     * chart adds for {@code metrics.secure}: no token 401, a token without the reader role 403, with it 200; plain
     * HTTP to the TLS port gets nothing; the probes stay plain HTTP on the health port.
     */
    @Test
    void httpsMetricsNeedATokenAllowedToGetMetrics(ControlPlane plane, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        try (MetricsScrapers scrapers = MetricsScrapers.create(admin, "operator-tls-it")) {
            scrapers.allowReviews(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT);
            OperatorProcess op = OperatorProcess.start(
                    dir,
                    "op-tls",
                    plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT),
                    Map.of(
                            "namespace", OperatorFixture.NAMESPACE,
                            "agent-image", "podnuma/node-agent:it",
                            "leader-election", "false",
                            "metrics-security", "https",
                            "metrics-auth-cache-ttl", "30s"));
            replicas.add(op);
            op.awaitReady(TIMEOUT);
            int port = op.metricsPort();
            assertThat(SecureScrape.certificate(port).getSubjectX500Principal().getName())
                    .isEqualTo("CN=podnuma-operator");

            assertThat(SecureScrape.get(port, null).statusCode()).isEqualTo(401);
            HttpResponse<String> stranger = SecureScrape.get(port, scrapers.strangerToken());
            assertThat(stranger.statusCode()).isEqualTo(403);
            assertThat(stranger.body()).contains("user \"" + scrapers.strangerUser() + "\" may not get /metrics");
            HttpResponse<String> reader = SecureScrape.get(port, scrapers.readerToken());
            assertThat(reader.statusCode()).isEqualTo(200);
            assertThat(reader.body()).contains("# TYPE operator_sdk_");
            assertThat(reader.headers().firstValue("Content-Type"))
                    .contains("text/plain; version=0.0.4; charset=utf-8");
            assertThat(SecureScrape.plainHttp(port, scrapers.readerToken()))
                    .as("plain HTTP to the TLS port")
                    .doesNotContain("# TYPE")
                    .doesNotStartWith("HTTP/1.1 200");
            assertThat(op.health("/healthz")).isEqualTo(200);

            // A real Prometheus with the scrape config docs/metrics.md gives: the reader's job is up, the
            // stranger's is refused with 403, a plain-HTTP job gets no answer.
            long t0 = System.nanoTime();
            Files.writeString(dir.resolve("reader.token"), scrapers.readerToken());
            Files.writeString(dir.resolve("stranger.token"), scrapers.strangerToken());
            String target = "127.0.0.1:" + port;
            try (PrometheusServer prometheus = PrometheusServer.start(
                    plane,
                    dir.resolve("prometheus"),
                    "global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n"
                            + secureJob("reader", target, dir.resolve("reader.token"))
                            + secureJob("stranger", target, dir.resolve("stranger.token"))
                            + "  - job_name: plain\n    static_configs: [{targets: ['" + target + "']}]\n")) {
                await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() -> {
                    Map<String, PrometheusApi.Target> byJob = new java.util.TreeMap<>();
                    prometheus.activeTargets().forEach(t -> byJob.put(t.scrapePool(), t));
                    assertThat(byJob.get("reader").health()).isEqualTo(PrometheusApi.TargetHealth.UP);
                    assertThat(byJob.get("stranger").health()).isEqualTo(PrometheusApi.TargetHealth.DOWN);
                    assertThat(byJob.get("stranger").lastError()).contains("403");
                    assertThat(byJob.get("plain").health()).isEqualTo(PrometheusApi.TargetHealth.DOWN);
                });
                assertThat(prometheus.query("count({job=\"reader\", __name__=~\"operator_sdk_.+\"})"))
                        .singleElement()
                        .satisfies(sample -> assertThat(sample.value()).isPositive());
            }
            System.out.printf(
                    "a real Prometheus scraped the https /metrics in %d ms%n",
                    Duration.ofNanos(System.nanoTime() - t0).toMillis());
        }
    }

    private static String secureJob(String name, String target, Path tokenFile) {
        return "  - job_name: " + name + "\n    scheme: https\n    tls_config: {insecure_skip_verify: true}\n"
                + "    authorization: {type: Bearer, credentials_file: " + tokenFile + "}\n"
                + "    static_configs: [{targets: ['" + target + "']}]\n";
    }

    private OperatorProcess start(String name, Path config, Path kubeconfig, Path dir) throws IOException {
        OperatorProcess r = OperatorProcess.start(dir, name, kubeconfig, Map.of("config", config.toString()));
        replicas.add(r);
        return r;
    }

    private static void policy(String name, String group) {
        admin.resource(new NumaResourcePolicy(name, SampleConfigs.selectingOnly("podnuma.it/group", group, 0)))
                .create();
    }

    private static String label(String node) {
        return admin.nodes().withName(node).get().getMetadata().getLabels().get(AgentRender.POLICY_LABEL);
    }

    private static String holder() {
        Lease lease = admin.leases()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName("podnuma-operator-it")
                .get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
