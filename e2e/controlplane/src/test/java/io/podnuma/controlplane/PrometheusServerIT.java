package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.podnuma.controlplane.PrometheusApi.AlertState;
import io.podnuma.controlplane.PrometheusApi.RuleHealth;
import io.podnuma.controlplane.PrometheusApi.RuleKind;
import io.podnuma.controlplane.PrometheusApi.TargetHealth;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real prometheus 3.16.0 scraping an exposition this test serves and a port nobody listens on: the typed
 * queries, targets, rules and alerts, a reload, and a close that leaves no process and no data.
 */
@ExtendWith(ControlPlaneExtension.class)
class PrometheusServerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private HttpServer exporter;
    private int closedPort;

    @BeforeEach
    void serveMetrics() throws Exception {
        exporter = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        exporter.createContext("/metrics", exchange -> {
            byte[] body = """
                    # HELP podnuma_fixture_pins_total Containers pinned.
                    # TYPE podnuma_fixture_pins_total counter
                    podnuma_fixture_pins_total{pool="exclusive"} 3
                    """.getBytes(StandardCharsets.UTF_8);
            // Prometheus 3 refuses a scrape without a proper exposition Content-Type.
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        exporter.start();
        closedPort = FreePorts.next();
    }

    @AfterEach
    void stopExporter() {
        exporter.stop(0);
    }

    private String config(String servedLabel) {
        return """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files: [%s]
                scrape_configs:
                - job_name: fixture
                  static_configs:
                  - targets: ['127.0.0.1:%d']
                    labels: {component: %s}
                  - targets: ['127.0.0.1:%d']
                    labels: {component: absent}
                """.formatted(dir.resolve("rules.yml"), exporter.getAddress().getPort(), servedLabel, closedPort);
    }

    @Test
    void scrapesAnswersTypedQueriesEvaluatesRulesAndLeavesNothingWhenClosed(ControlPlane plane) throws Exception {
        Files.writeString(dir.resolve("rules.yml"), """
                groups:
                - name: fixture
                  rules:
                  - record: fixture:pins:sum
                    expr: sum(podnuma_fixture_pins_total)
                  - alert: FixtureTargetDown
                    expr: up{job="fixture"} == 0
                    labels: {severity: critical}
                """);
        PrometheusServer prometheus = PrometheusServer.start(plane, dir.resolve("prometheus"), config("served"));
        long pid;
        try {
            pid = prometheus.pid();
            await().atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(prometheus.activeTargets())
                            .extracting(t -> t.labels().get("component"), PrometheusApi.Target::health)
                            .containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple("served", TargetHealth.UP),
                                    org.assertj.core.groups.Tuple.tuple("absent", TargetHealth.DOWN)));
            assertThat(prometheus.activeTargets())
                    .filteredOn(t -> t.health() == TargetHealth.DOWN)
                    .singleElement()
                    .satisfies(t -> assertThat(t.lastError()).contains("connection refused"));

            assertThat(prometheus.query("podnuma_fixture_pins_total"))
                    .singleElement()
                    .satisfies(s -> {
                        assertThat(s.metricName()).isEqualTo("podnuma_fixture_pins_total");
                        assertThat(s.labels())
                                .containsEntry("pool", "exclusive")
                                .containsEntry("job", "fixture");
                        assertThat(s.value()).isEqualTo(3.0);
                    });
            assertThat(prometheus.query("scalar(sum(podnuma_fixture_pins_total)) * 2"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isEqualTo(6.0));
            assertThatThrownBy(() -> prometheus.query("sum("))
                    .isInstanceOfSatisfying(
                            PrometheusApi.ApiException.class,
                            e -> assertThat(e.errorType()).isEqualTo("bad_data"));

            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(prometheus.ruleGroups())
                        .singleElement()
                        .satisfies(g -> assertThat(g.rules())
                                .extracting(
                                        PrometheusApi.Rule::kind, PrometheusApi.Rule::health, PrometheusApi.Rule::state)
                                .containsExactly(
                                        org.assertj.core.groups.Tuple.tuple(
                                                RuleKind.RECORDING, RuleHealth.OK, Optional.empty()),
                                        org.assertj.core.groups.Tuple.tuple(
                                                RuleKind.ALERTING, RuleHealth.OK, Optional.of(AlertState.FIRING))));
                assertThat(prometheus.alerts()).singleElement().satisfies(a -> {
                    assertThat(a.name()).isEqualTo("FixtureTargetDown");
                    assertThat(a.labels()).containsEntry("component", "absent");
                    assertThat(a.state()).isEqualTo(AlertState.FIRING);
                });
                assertThat(prometheus.query("fixture:pins:sum"))
                        .singleElement()
                        .satisfies(s -> assertThat(s.value()).isEqualTo(3.0));
            });

            // A reload takes the new target labels; a config it refuses fails the call and keeps the old one.
            prometheus.reload(config("reloaded"));
            await().atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(prometheus.activeTargets())
                            .extracting(t -> t.labels().get("component"))
                            .containsExactlyInAnyOrder("reloaded", "absent"));
            assertThatThrownBy(() -> prometheus.reload("scrape_configs: [{job_name: x, scrape_interval: soon}]"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("soon");
        } finally {
            prometheus.close();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(dir.resolve("prometheus/data")).doesNotExist();
        assertThat(Files.readString(prometheus.log())).contains("See you next time!");
    }
}
