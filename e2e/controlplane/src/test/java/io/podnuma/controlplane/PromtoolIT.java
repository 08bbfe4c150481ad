package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.Promtool.LintFinding;
import io.podnuma.controlplane.Promtool.MetricsVerdict;
import io.podnuma.controlplane.Promtool.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The real promtool 3.16.0: metrics lint, rule unit tests and config checks, each typed. */
@ExtendWith(ControlPlaneExtension.class)
class PromtoolIT {

    @TempDir
    Path dir;

    private Promtool promtool;

    @BeforeEach
    void promtool(ControlPlane plane) {
        promtool = Promtool.in(plane.binDir());
    }

    @Test
    void wellFormedMetricsAreClean() {
        String text = """
                # HELP podnuma_pins_total Containers pinned.
                # TYPE podnuma_pins_total counter
                podnuma_pins_total{pool="exclusive"} 3
                # HELP podnuma_pin_latency_seconds Time from container start to its pin.
                # TYPE podnuma_pin_latency_seconds histogram
                podnuma_pin_latency_seconds_bucket{le="0.1"} 1
                podnuma_pin_latency_seconds_bucket{le="+Inf"} 2
                podnuma_pin_latency_seconds_sum 0.3
                podnuma_pin_latency_seconds_count 2
                """;

        Promtool.MetricsCheck check = promtool.checkMetrics(text);

        assertThat(check.verdict()).as(check.output()).isEqualTo(MetricsVerdict.CLEAN);
        assertThat(check.findings()).isEmpty();
    }

    @Test
    void aCounterWithoutTotalAndAMetricWithoutHelpAreFindings() {
        String text = """
                # TYPE podnuma_pins counter
                podnuma_pins 3
                # HELP podnuma_drift_total Drift seen.
                # TYPE podnuma_drift_total counter
                podnuma_drift_total 1
                """;

        Promtool.MetricsCheck check = promtool.checkMetrics(text);

        assertThat(check.verdict()).isEqualTo(MetricsVerdict.LINT_FINDINGS);
        assertThat(check.findings())
                .containsExactlyInAnyOrder(
                        new LintFinding("podnuma_pins", "no help text"),
                        new LintFinding("podnuma_pins", "counter metrics should have \"_total\" suffix"));
    }

    @Test
    void textThatIsNoExpositionIsUnparsable() {
        Promtool.MetricsCheck check = promtool.checkMetrics("this is not { metrics\n");

        assertThat(check.verdict()).isEqualTo(MetricsVerdict.UNPARSABLE);
        assertThat(check.output()).contains("error while linting");
    }

    @Test
    void ruleUnitTestsPassWhenTheAlertFiresAsExpectedAndFailWithTheDiffOtherwise() throws Exception {
        Files.writeString(dir.resolve("rules.yml"), """
                groups:
                - name: podnuma
                  rules:
                  - alert: PodnumaAgentDown
                    expr: up{job="podnuma-node-agent"} == 0
                    for: 1m
                    labels:
                      severity: critical
                """);
        Files.writeString(dir.resolve("passes.yml"), test("PodnumaAgentDown", "critical"));
        Files.writeString(dir.resolve("fails.yml"), test("PodnumaAgentDown", "warning"));

        Promtool.Run passed = promtool.testRules(dir.resolve("passes.yml"));
        Promtool.Run failed = promtool.testRules(dir.resolve("fails.yml"));

        assertThat(passed.verdict()).as(passed.output()).isEqualTo(Verdict.PASSED);
        assertThat(passed.output()).contains("SUCCESS");
        assertThat(failed.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.output()).contains("FAILED", "severity=\"critical\"", "severity=\"warning\"");
    }

    private static String test(String alert, String severity) {
        return """
                rule_files: [rules.yml]
                evaluation_interval: 1m
                tests:
                - interval: 1m
                  input_series:
                  - series: 'up{job="podnuma-node-agent",instance="n1"}'
                    values: '0 0 0'
                  alert_rule_test:
                  - eval_time: 2m
                    alertname: %s
                    exp_alerts:
                    - exp_labels: {severity: %s, job: podnuma-node-agent, instance: n1}
                """.formatted(alert, severity);
    }

    @Test
    void aKubernetesDiscoveryConfigChecksOfflineAndABadRelabelActionDoesNot(ControlPlane plane) throws Exception {
        Path good = dir.resolve("good.yml");
        Files.writeString(good, """
                scrape_configs:
                - job_name: podnuma
                  kubernetes_sd_configs:
                  - role: pod
                    kubeconfig_file: %s
                  relabel_configs:
                  - source_labels: [__meta_kubernetes_pod_container_port_name]
                    regex: metrics
                    action: keep
                """.formatted(plane.kubeconfig()));
        Path bad = dir.resolve("bad.yml");
        Files.writeString(bad, Files.readString(good).replace("action: keep", "action: keep-it"));

        Promtool.Run checked = promtool.checkConfig(good);
        Promtool.Run refused = promtool.checkConfig(bad);

        assertThat(checked.verdict()).as(checked.output()).isEqualTo(Verdict.PASSED);
        assertThat(refused.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(refused.output()).contains("keep-it");
    }
}
