package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.controlplane.PrometheusApi.AlertState;
import io.podnuma.controlplane.PrometheusApi.RuleHealth;
import io.podnuma.controlplane.PrometheusApi.RuleKind;
import io.podnuma.controlplane.PrometheusApi.TargetHealth;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The API's JSON as Prometheus 3.16 writes it (shapes taken from answers of the real server). */
class PrometheusApiTest {

    @Test
    void aVectorIsOneSamplePerSeriesWithItsLabelsValueAndTime() {
        String json = """
                {"status":"success","data":{"resultType":"vector","result":[
                  {"metric":{"__name__":"podnuma_pins_total","instance":"127.0.0.1:9400","job":"podnuma"},
                   "value":[1764590400.125,"3"]},
                  {"metric":{"__name__":"up","job":"podnuma"},"value":[1764590400.125,"NaN"]}]}}
                """;

        assertThat(PrometheusApi.samples(json))
                .satisfiesExactly(
                        first -> {
                            assertThat(first.metricName()).isEqualTo("podnuma_pins_total");
                            assertThat(first.labels()).containsEntry("instance", "127.0.0.1:9400");
                            assertThat(first.value()).isEqualTo(3.0);
                            assertThat(first.timestamp()).isEqualTo(Instant.ofEpochSecond(1764590400L, 125_000_000));
                        },
                        second -> assertThat(second.value()).isNaN());
    }

    @Test
    void aScalarIsOneSampleWithoutLabelsAndAnAggregateHasNoName() {
        assertThat(PrometheusApi.samples("""
                        {"status":"success","data":{"resultType":"scalar","result":[1764590400,"2.5"]}}""")).singleElement().satisfies(s -> {
            assertThat(s.labels()).isEmpty();
            assertThat(s.value()).isEqualTo(2.5);
            assertThat(s.metricName()).isEmpty();
        });
    }

    @Test
    void anEmptyVectorIsNoSamples() {
        assertThat(PrometheusApi.samples("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}"))
                .isEmpty();
    }

    @Test
    void aRangeResultIsRefusedForAnInstantQuery() {
        assertThatThrownBy(() -> PrometheusApi.samples(
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("matrix");
    }

    @Test
    void anErrorAnswerIsAnApiExceptionWithItsType() {
        assertThatThrownBy(() -> PrometheusApi.samples("""
                        {"status":"error","errorType":"bad_data","error":"invalid parameter \\"query\\": 1:5: parse error"}"""))
                .isInstanceOfSatisfying(
                        PrometheusApi.ApiException.class,
                        e -> assertThat(e.errorType()).isEqualTo("bad_data"))
                .hasMessageContaining("parse error");
    }

    @Test
    void somethingElseThanTheApiIsRefused() {
        assertThatThrownBy(() -> PrometheusApi.samples("<html>"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not JSON");
        assertThatThrownBy(() -> PrometheusApi.activeTargets("{\"data\":{}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("status ''");
    }

    @ParameterizedTest
    @CsvSource({"1,1.0", "+Inf,Infinity", "-Inf,-Infinity", "1e-3,0.001", "-0.5,-0.5"})
    void valuesAreStringsWithPrometheusSpellingOfInfinity(String text, double expected) {
        assertThat(PrometheusApi.value(text)).isEqualTo(expected);
    }

    @Test
    void activeTargetsCarryRelabelledAndDiscoveredLabelsHealthAndLastError() {
        String json = """
                {"status":"success","data":{"activeTargets":[
                  {"discoveredLabels":{"__address__":"127.0.0.1:9400",
                     "__meta_kubernetes_pod_label_app_kubernetes_io_name":"podnuma-node-agent",
                     "__meta_kubernetes_pod_container_port_name":"metrics"},
                   "labels":{"instance":"127.0.0.1:9400","job":"podnuma","component":"podnuma-node-agent"},
                   "scrapePool":"podnuma","scrapeUrl":"http://127.0.0.1:9400/metrics","globalUrl":"http://127.0.0.1:9400/metrics",
                   "lastError":"","lastScrape":"2026-12-01T12:00:00Z","lastScrapeDuration":0.01,"health":"up",
                   "scrapeInterval":"1s","scrapeTimeout":"1s"},
                  {"discoveredLabels":{},"labels":{"job":"podnuma"},"scrapePool":"podnuma",
                   "scrapeUrl":"http://127.0.0.1:1/metrics","lastError":"connection refused","health":"down"},
                  {"discoveredLabels":{},"labels":{},"scrapePool":"podnuma","scrapeUrl":"http://x/metrics","health":"unknown"}],
                 "droppedTargets":[{"discoveredLabels":{"__address__":"10.0.0.1:80"}}],"droppedTargetCounts":{"podnuma":1}}}
                """;

        assertThat(PrometheusApi.activeTargets(json))
                .satisfiesExactly(
                        up -> {
                            assertThat(up.health()).isEqualTo(TargetHealth.UP);
                            assertThat(up.scrapePool()).isEqualTo("podnuma");
                            assertThat(up.scrapeUrl()).isEqualTo("http://127.0.0.1:9400/metrics");
                            assertThat(up.labels()).containsEntry("component", "podnuma-node-agent");
                            assertThat(up.discoveredLabels())
                                    .containsEntry("__meta_kubernetes_pod_container_port_name", "metrics");
                            assertThat(up.lastError()).isEmpty();
                        },
                        down -> {
                            assertThat(down.health()).isEqualTo(TargetHealth.DOWN);
                            assertThat(down.lastError()).isEqualTo("connection refused");
                        },
                        unknown -> assertThat(unknown.health()).isEqualTo(TargetHealth.UNKNOWN));
    }

    @Test
    void ruleGroupsTellAlertingFromRecordingRulesAndCarryHealthAndState() {
        String json = """
                {"status":"success","data":{"groups":[{"name":"podnuma","file":"/etc/rules.yml","interval":1,
                  "rules":[
                    {"state":"firing","name":"PodnumaAgentDown","query":"up{job=\\"podnuma\\"} == 0","duration":0,
                     "labels":{"severity":"critical"},"alerts":[],"health":"ok","type":"alerting","lastError":""},
                    {"name":"podnuma:pins:rate5m","query":"rate(podnuma_pins_total[5m])","health":"err",
                     "lastError":"many-to-many matching not allowed","type":"recording"},
                    {"state":"inactive","name":"PodnumaDrift","query":"x > 0","health":"unknown","type":"alerting"}]}]}}
                """;

        assertThat(PrometheusApi.ruleGroups(json)).singleElement().satisfies(group -> {
            assertThat(group.name()).isEqualTo("podnuma");
            assertThat(group.file()).isEqualTo("/etc/rules.yml");
            assertThat(group.rules())
                    .extracting(
                            PrometheusApi.Rule::name,
                            PrometheusApi.Rule::kind,
                            PrometheusApi.Rule::health,
                            PrometheusApi.Rule::state)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(
                                    "PodnumaAgentDown",
                                    RuleKind.ALERTING,
                                    RuleHealth.OK,
                                    Optional.of(AlertState.FIRING)),
                            org.assertj.core.groups.Tuple.tuple(
                                    "podnuma:pins:rate5m", RuleKind.RECORDING, RuleHealth.ERR, Optional.empty()),
                            org.assertj.core.groups.Tuple.tuple(
                                    "PodnumaDrift",
                                    RuleKind.ALERTING,
                                    RuleHealth.UNKNOWN,
                                    Optional.of(AlertState.INACTIVE)));
            assertThat(group.rules().get(0).query()).isEqualTo("up{job=\"podnuma\"} == 0");
            assertThat(group.rules().get(1).lastError()).contains("many-to-many");
        });
    }

    @Test
    void alertsAreNamedByTheirAlertnameLabel() {
        String json = """
                {"status":"success","data":{"alerts":[
                  {"labels":{"alertname":"PodnumaAgentDown","severity":"critical"},"annotations":{},
                   "state":"pending","activeAt":"2026-12-01T12:00:00Z","value":"0e+00"}]}}
                """;

        assertThat(PrometheusApi.alerts(json)).singleElement().satisfies(alert -> {
            assertThat(alert.name()).isEqualTo("PodnumaAgentDown");
            assertThat(alert.state()).isEqualTo(AlertState.PENDING);
            assertThat(alert.value()).isZero();
            assertThat(alert.labels()).isEqualTo(Map.of("alertname", "PodnumaAgentDown", "severity", "critical"));
        });
    }
}
