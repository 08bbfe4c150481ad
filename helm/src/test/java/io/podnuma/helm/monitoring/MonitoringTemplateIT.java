package io.podnuma.helm.monitoring;

import static io.podnuma.helm.monitoring.Monitors.AGENT;
import static io.podnuma.helm.monitoring.Monitors.NAMESPACE;
import static io.podnuma.helm.monitoring.Monitors.OPERATOR;
import static io.podnuma.helm.monitoring.Monitors.RELEASE_PREFIX;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.helm.ChartFiles;
import io.podnuma.helm.Helm;
import io.podnuma.helm.Rendered;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's monitoring part through the real {@code helm template}: each optional object off by default and on
 * when asked, with its labels, namespace, interval and thresholds from the values; the operator's monitor settings;
 * {@code helm lint --strict} with every part on; bad values refused with the key.
 */
@ExtendWith(ControlPlaneExtension.class)
class MonitoringTemplateIT {

    /** One optional part: the value that switches it on and how to count what it renders. */
    enum Part {
        SERVICE_MONITOR(
                "metrics.serviceMonitor.enabled",
                r -> Monitors.all(r, "ServiceMonitor").size()),
        POD_MONITOR(
                "metrics.podMonitor.enabled", r -> Monitors.all(r, "PodMonitor").size()),
        PROMETHEUS_RULE(
                "prometheusRule.enabled", r -> Monitors.all(r, "PrometheusRule").size()),
        GRAFANA_DASHBOARD(
                "grafanaDashboard.enabled",
                r -> r.find(ConfigMap.class, RELEASE_PREFIX + "-dashboard")
                        .map(c -> 1)
                        .orElse(0));

        final String value;
        final Function<Rendered, Integer> count;

        Part(String value, Function<Rendered, Integer> count) {
            this.value = value;
            this.count = count;
        }
    }

    private static ControlPlane plane;

    @BeforeAll
    static void plane(ControlPlane p) {
        plane = p;
    }

    @Test
    void nothingOfItByDefaultAndTheOperatorRendersNoAgentServiceMonitor() {
        Rendered r = Helm.render(plane);
        for (Part part : Part.values()) {
            assertThat(part.count.apply(r)).as(part.name()).isZero();
        }
        JsonNode settings = Monitors.settings(r);
        assertThat(settings.path("agentServiceMonitor").asText()).isEqualTo("false");
        assertThat(settings.path("serviceMonitorLabels").isObject()).isTrue();
        assertThat(settings.path("serviceMonitorLabels").isEmpty()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("parts")
    void eachPartAloneRendersItsObjectOnly(Part on) {
        Rendered r = Helm.render(plane, "--set", on.value + "=true");
        for (Part part : Part.values()) {
            assertThat(part.count.apply(r)).as(part.name()).isEqualTo(part == on ? 1 : 0);
        }
    }

    static Stream<Part> parts() {
        return Stream.of(Part.values());
    }

    @Test
    void theServiceMonitorScrapesTheOperatorsMetricsServiceAndTheOperatorTheAgents() {
        Rendered r = Helm.render(
                plane,
                "--set",
                "metrics.serviceMonitor.enabled=true",
                "--set",
                "metrics.serviceMonitor.labels.release=kps",
                "--set",
                "metrics.serviceMonitor.interval=15s",
                "--set",
                "metrics.serviceMonitor.scrapeTimeout=5s");
        JsonNode sm = Monitors.one(r, "ServiceMonitor");
        assertThat(sm.at("/metadata/name").asText()).isEqualTo(OPERATOR);
        assertThat(sm.at("/metadata/namespace").asText()).isEqualTo(NAMESPACE);
        assertThat(sm.at("/metadata/labels/release").asText()).isEqualTo("kps");
        assertThat(sm.at("/metadata/labels/app.kubernetes.io~1component").asText())
                .isEqualTo("operator");

        // It selects exactly the operator's metrics Service, by that Service's labels and port name.
        Service service = r.get(Service.class, OPERATOR + "-metrics");
        Map<String, String> selector = ChartFiles.JSON.convertValue(
                sm.at("/spec/selector/matchLabels"),
                ChartFiles.JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class));
        assertThat(service.getMetadata().getLabels()).containsAllEntriesOf(selector);
        assertThat(selector).containsEntry("app.kubernetes.io/component", "operator");
        assertThat(sm.at("/spec/namespaceSelector/matchNames/0").asText()).isEqualTo(NAMESPACE);
        JsonNode endpoint = sm.at("/spec/endpoints/0");
        assertThat(service.getSpec().getPorts())
                .extracting(p -> p.getName())
                .contains(endpoint.path("port").asText());
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
        assertThat(endpoint.path("interval").asText()).isEqualTo("15s");
        assertThat(endpoint.path("scrapeTimeout").asText()).isEqualTo("5s");

        JsonNode settings = Monitors.settings(r);
        assertThat(settings.path("agentServiceMonitor").asText()).isEqualTo("true");
        assertThat(settings.path("serviceMonitorLabels"))
                .isEqualTo(ChartFiles.JSON.valueToTree(Map.of("release", "kps")));
    }

    @Test
    void thePodMonitorSelectsEveryAgentPodAndTakesTheAgentsFromTheOperator() {
        Rendered r = Helm.render(
                plane,
                "--set",
                "metrics.podMonitor.enabled=true",
                "--set",
                "metrics.podMonitor.labels.release=kps",
                "--set",
                "metrics.podMonitor.interval=1m",
                "--set",
                "metrics.serviceMonitor.labels.team=perf");
        JsonNode pm = Monitors.one(r, "PodMonitor");
        assertThat(pm.at("/metadata/name").asText()).isEqualTo(AGENT);
        assertThat(pm.at("/metadata/labels/release").asText()).isEqualTo("kps");
        // The labels and the port the operator gives every agent pod (operator AgentRender).
        assertThat(pm.at("/spec/selector/matchLabels"))
                .isEqualTo(ChartFiles.JSON.valueToTree(Map.of("app.kubernetes.io/name", "podnuma-agent")));
        assertThat(pm.at("/spec/namespaceSelector/matchNames/0").asText()).isEqualTo(NAMESPACE);
        assertThat(pm.at("/spec/jobLabel").asText()).isEqualTo("app.kubernetes.io/name");
        JsonNode endpoint = pm.at("/spec/podMetricsEndpoints/0");
        assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
        assertThat(endpoint.path("interval").asText()).isEqualTo("1m");
        assertThat(endpoint.path("scrapeTimeout").asText()).isEqualTo("10s");
        List<String> targets = new ArrayList<>();
        endpoint.path("relabelings")
                .forEach(l -> targets.add(l.path("sourceLabels").get(0).asText() + "->"
                        + l.path("targetLabel").asText()));
        assertThat(targets)
                .containsExactly(
                        "__meta_kubernetes_pod_node_name->node",
                        "__meta_kubernetes_pod_label_podnuma_io_policy->policy");

        assertThat(Monitors.settings(r).path("agentServiceMonitor").asText()).isEqualTo("false");
    }

    @Test
    void withBothTheOperatorKeepsItsServiceMonitorAndTheAgentsAreThePodMonitors() {
        Rendered r = Helm.render(
                plane, "--set", "metrics.serviceMonitor.enabled=true", "--set", "metrics.podMonitor.enabled=true");
        assertThat(Monitors.all(r, "ServiceMonitor")).hasSize(1);
        assertThat(Monitors.all(r, "PodMonitor")).hasSize(1);
        assertThat(Monitors.settings(r).path("agentServiceMonitor").asText()).isEqualTo("false");
    }

    @Test
    void thePrometheusRuleCarriesEveryAlertWithItsLabelsNamespaceAndThresholds() {
        Rendered r = Helm.render(
                plane,
                "--set",
                "prometheusRule.enabled=true",
                "--set",
                "prometheusRule.namespace=monitoring",
                "--set",
                "prometheusRule.labels.release=kps",
                "--set",
                "prometheusRule.alertLabels.team=perf",
                "--set",
                "prometheusRule.agentSelector=job=\"agents\"",
                "--set",
                "prometheusRule.alerts.agentDown.severity=page",
                "--set",
                "prometheusRule.alerts.agentDown.for=2m",
                "--set-json",
                "prometheusRule.alerts.pinLatency.p99Seconds=0.05",
                "--set",
                "prometheusRule.alerts.repeatedDrift.window=2h",
                "--set-json",
                "prometheusRule.alerts.repeatedDrift.threshold=10",
                "--set-json",
                "prometheusRule.alerts.agentMemory.thresholdMiB=400");
        JsonNode rule = Monitors.one(r, "PrometheusRule");
        assertThat(rule.at("/metadata/namespace").asText()).isEqualTo("monitoring");
        assertThat(rule.at("/metadata/labels/release").asText()).isEqualTo("kps");
        Map<String, JsonNode> alerts = AlertRules.byName(rule.path("spec"));
        assertThat(alerts.keySet()).containsExactlyInAnyOrderElementsOf(AlertRules.ALERTS);
        alerts.forEach((name, a) -> {
            assertThat(a.at("/labels/team").asText()).as(name).isEqualTo("perf");
            assertThat(a.at("/labels/severity").asText()).as(name).isNotBlank();
            assertThat(a.path("for").asText()).as(name).matches("[0-9]+[smh]");
            assertThat(a.at("/annotations/summary").asText()).as(name).isNotBlank();
            assertThat(a.at("/annotations/description").asText()).as(name).isNotBlank();
        });
        JsonNode down = alerts.get("PodnumaAgentDown");
        assertThat(down.path("expr").asText()).isEqualTo("up{job=\"agents\"} == 0");
        assertThat(down.path("for").asText()).isEqualTo("2m");
        assertThat(down.at("/labels/severity").asText()).isEqualTo("page");
        assertThat(down.at("/annotations/description").asText()).contains("for 2m:");
        assertThat(alerts.get("PodnumaAgentMissing").path("expr").asText()).contains("count(up{job=\"agents\"} == 1)");
        assertThat(alerts.get("PodnumaPinLatencyHigh").path("expr").asText()).endsWith("[10m]))) > 0.05");
        assertThat(alerts.get("PodnumaRepeatedDrift").path("expr").asText())
                .isEqualTo("increase(podnuma_drift_repaired_total[2h]) > 10");
        assertThat(alerts.get("PodnumaAgentMemoryHigh").path("expr").asText())
                .isEqualTo("process_resident_memory_bytes{job=\"agents\"} > 400 * 1024 * 1024");
    }

    @Test
    void theDashboardConfigMapHoldsTheDashboardFileForGrafanasSidecar() throws IOException {
        Rendered defaults = Helm.render(plane, "--set", "grafanaDashboard.enabled=true");
        ConfigMap cm = defaults.get(ConfigMap.class, RELEASE_PREFIX + "-dashboard");
        assertThat(cm.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(cm.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(ChartFiles.JSON.readTree(cm.getData().get("podnuma.json")))
                .isEqualTo(ChartFiles.JSON.readTree(Files.readString(ChartFiles.file("dashboards/podnuma.json"))));

        ConfigMap moved = Helm.render(
                        plane,
                        "--set",
                        "grafanaDashboard.enabled=true",
                        "--set",
                        "grafanaDashboard.namespace=grafana",
                        // Helm merges maps with the defaults: null takes the default label away.
                        "--set",
                        "grafanaDashboard.labels.grafana_dashboard=null",
                        "--set",
                        "grafanaDashboard.labels.dashboards=podnuma",
                        "--set",
                        "grafanaDashboard.annotations.grafana_folder=podnuma")
                .get(ConfigMap.class, RELEASE_PREFIX + "-dashboard");
        assertThat(moved.getMetadata().getNamespace()).isEqualTo("grafana");
        assertThat(moved.getMetadata().getLabels())
                .containsEntry("dashboards", "podnuma")
                .doesNotContainKey("grafana_dashboard");
        assertThat(moved.getMetadata().getAnnotations()).containsEntry("grafana_folder", "podnuma");
    }

    @Test
    void everyMonitoringPartOnLintsClean(@TempDir Path dir) throws IOException {
        Path values = Files.writeString(dir.resolve("monitoring.yaml"), """
                metrics:
                  serviceMonitor: {enabled: true, labels: {release: kps}}
                  podMonitor: {enabled: true, labels: {release: kps}}
                  secure: {enabled: true, certSecret: podnuma-metrics-tls, authCacheTtl: 30s, readers: [{kind: ServiceAccount, name: prometheus, namespace: monitoring}]}
                prometheusRule: {enabled: true, labels: {release: kps}, alertLabels: {team: perf}}
                grafanaDashboard: {enabled: true, namespace: grafana, annotations: {grafana_folder: podnuma}}
                """);
        CommandResult lint = plane.helm(
                "lint",
                "--strict",
                "--kube-version",
                Helm.KUBE_VERSION,
                ChartFiles.chart().toString(),
                "-f",
                values.toString());
        assertThat(lint.assertSuccess().stdout())
                .contains("1 chart(s) linted, 0 chart(s) failed")
                .doesNotContain("[WARNING]")
                .doesNotContain("[ERROR]");
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(
                        "--set", "metrics.serviceMonitor.interval=30 seconds", "at '/metrics/serviceMonitor/interval'"),
                Arguments.of(
                        "--set",
                        "metrics.podMonitor.enabled=yes",
                        "at '/metrics/podMonitor/enabled': got string, want boolean"),
                Arguments.of(
                        "--set",
                        "metrics.podMonitor.port=web",
                        "at '/metrics/podMonitor': additional properties 'port' not allowed"),
                Arguments.of(
                        "--set-json",
                        "prometheusRule.labels={\"release\":1}",
                        "at '/prometheusRule/labels/release': got number, want string"),
                Arguments.of(
                        "--set",
                        "prometheusRule.alerts.agentDown.severity=Critical!",
                        "at '/prometheusRule/alerts/agentDown/severity'"),
                Arguments.of(
                        "--set",
                        "prometheusRule.alerts.agentDown.for=soon",
                        "at '/prometheusRule/alerts/agentDown/for'"),
                Arguments.of(
                        "--set-json",
                        "prometheusRule.alerts.pinLatency.p99Seconds=0",
                        "at '/prometheusRule/alerts/pinLatency/p99Seconds'"),
                Arguments.of(
                        "--set-json",
                        "prometheusRule.alerts.repeatedDrift.threshold=-1",
                        "at '/prometheusRule/alerts/repeatedDrift/threshold'"),
                Arguments.of(
                        "--set-json",
                        "prometheusRule.alerts.agentMemory.thresholdMiB=0",
                        "at '/prometheusRule/alerts/agentMemory/thresholdMiB'"),
                Arguments.of("--set", "prometheusRule.agentSelector={job=\"x\"}", "at '/prometheusRule/agentSelector'"),
                Arguments.of(
                        "--set-json",
                        "prometheusRule.alertLabels={\"bad-name\":\"x\"}",
                        "invalid propertyName 'bad-name'"),
                Arguments.of(
                        "--set", "grafanaDashboard.namespace=Not_A_Namespace", "at '/grafanaDashboard/namespace'"));
    }

    @ParameterizedTest
    @MethodSource("badValues")
    void badMonitoringValuesAreRefusedWithTheirKey(String flag, String value, String message) {
        CommandResult result = Helm.template(plane, "r", NAMESPACE, flag, value);
        assertThat(result.assertFailure().output()).contains(message);
    }
}
