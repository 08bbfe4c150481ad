package io.podnuma.helm.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.Promtool;
import io.podnuma.helm.ChartFiles;
import io.podnuma.helm.Helm;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's alerts through the real {@code promtool test rules}: the PrometheusRule as {@code helm template}
 * renders it with the default values, its {@code spec} written as {@code rules.yaml} beside copies of
 * {@code helm/podnuma/tests/rules/*.yaml}, one run per test file; and every alert has a file with a case where it
 * fires and one where it does not.
 */
@ExtendWith(ControlPlaneExtension.class)
class AlertRulesPromtoolIT {

    static final Path TESTS = ChartFiles.file("tests/rules");

    @TempDir
    static Path work;

    private static Promtool promtool;
    private static JsonNode rules;

    @BeforeAll
    static void renderTheRules(ControlPlane plane) throws IOException {
        promtool = Promtool.in(plane.binDir());
        String rendered = Helm.template(
                        plane,
                        "r",
                        Monitors.NAMESPACE,
                        "--set",
                        "prometheusRule.enabled=true",
                        "--show-only",
                        "templates/monitoring/prometheusrule.yaml")
                .assertSuccess()
                .stdout();
        rules = ChartFiles.yaml(rendered).path("spec");
        Files.writeString(work.resolve("rules.yaml"), ChartFiles.YAML.writeValueAsString(rules));
        for (Path test : testFiles().toList()) {
            Files.copy(test, work.resolve(test.getFileName()));
        }
    }

    static Stream<Path> testFiles() throws IOException {
        try (Stream<Path> files = Files.list(TESTS)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("testFiles")
    void promtoolPassesTheUnitTests(Path test) {
        Promtool.Run run = promtool.testRules(work.resolve(test.getFileName()));
        assertThat(run.verdict())
                .as("promtool test rules %s:\n%s", test.getFileName(), run.output())
                .isEqualTo(Promtool.Verdict.PASSED);
    }

    @Test
    void aBrokenRuleFailsTheUnitTests() throws IOException {
        // The budget raised over the test's 24.85 ms: the firing case must fail, or the tests prove nothing.
        Path dir = Files.createDirectories(work.resolve("broken"));
        String raised = ChartFiles.YAML.writeValueAsString(rules).replace("> 0.01", "> 0.03");
        assertThat(raised).isNotEqualTo(ChartFiles.YAML.writeValueAsString(rules));
        Files.writeString(dir.resolve("rules.yaml"), raised);
        Path test = Files.copy(TESTS.resolve("pin-latency.yaml"), dir.resolve("pin-latency.yaml"));
        Promtool.Run run = promtool.testRules(test);
        assertThat(run.verdict()).isEqualTo(Promtool.Verdict.FAILED);
        assertThat(run.output()).contains("PodnumaPinLatencyHigh");
    }

    @Test
    void theDocsAlertsTableHasEveryAlertWithItsDefaultSeverityAndFor() throws IOException {
        Map<String, String> documented = new TreeMap<>();
        for (String line : Files.readAllLines(Repository.resolve("docs/metrics.md"))) {
            String[] cells = line.split("\\|");
            if (cells.length >= 5 && cells[1].strip().matches("`Podnuma[A-Za-z]+`")) {
                documented.put(cells[1].strip().replace("`", ""), cells[3].strip() + " " + cells[4].strip());
            }
        }
        Map<String, String> rendered = new TreeMap<>();
        AlertRules.byName(rules)
                .forEach((name, rule) -> rendered.put(
                        name,
                        rule.at("/labels/severity").asText() + " "
                                + rule.path("for").asText()));
        assertThat(documented).isEqualTo(rendered);
    }

    @Test
    void everyAlertHasAFiringAndAQuietCase() throws IOException {
        assertThat(AlertRules.byName(rules).keySet()).containsExactlyInAnyOrderElementsOf(AlertRules.ALERTS);
        Map<String, Set<String>> cases = new TreeMap<>();
        for (Path test : testFiles().toList()) {
            for (JsonNode group : ChartFiles.YAML.readTree(test.toFile()).path("tests")) {
                for (JsonNode check : group.path("alert_rule_test")) {
                    cases.computeIfAbsent(check.path("alertname").asText(), a -> new TreeSet<>())
                            .add(check.path("exp_alerts").isEmpty() ? "quiet" : "fires");
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (String alert : AlertRules.ALERTS) {
            for (String kind : List.of("fires", "quiet")) {
                if (!cases.getOrDefault(alert, Set.of()).contains(kind)) {
                    missing.add(alert + " " + kind);
                }
            }
        }
        assertThat(missing).as("alerts without a promtool case").isEmpty();
        assertThat(cases.keySet()).as("cases of alerts the chart does not have").isSubsetOf(AlertRules.ALERTS);
    }
}
