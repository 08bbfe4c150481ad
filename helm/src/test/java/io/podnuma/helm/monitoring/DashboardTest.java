package io.podnuma.helm.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.helm.ChartFiles;
import io.podnuma.testkit.prometheus.GrafanaDashboard;
import io.podnuma.testkit.prometheus.PromQlNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard file: well formed, every panel on the datasource variable, the job, policy and node variables
 * and every panel query filtered by those its series carry, and together they show what the chart promises. That the
 * metrics exist is checked against live scrapes by the e2e ExportedMetricsIT, that the variables' and the panels'
 * queries find a real Prometheus's series by the e2e KubernetesDiscoveryIT.
 */
class DashboardTest {

    /** The filter of each variable as every panel query writes it. */
    private static final Map<String, String> FILTERS =
            Map.of("job", "=~\"$job\"", "policy", "=~\"$policy\"", "node", "=~\"$node\"");

    private static final Pattern VARIABLE_USE = Pattern.compile("\\$\\{?(\\w+)");

    private static JsonNode dashboard() throws IOException {
        return ChartFiles.JSON.readTree(
                ChartFiles.file("dashboards/podnuma.json").toFile());
    }

    @Test
    void panelsHaveUniqueIdsQueriesOnTheDatasourceVariableAndNoOverlap() throws IOException {
        JsonNode d = dashboard();
        assertThat(d.path("uid").asText()).isEqualTo("podnuma-overview");
        assertThat(d.at("/templating/list/0/name").asText()).isEqualTo("datasource");
        assertThat(d.at("/templating/list/0/query").asText()).isEqualTo("prometheus");
        Set<Integer> ids = new HashSet<>();
        List<int[]> cells = new ArrayList<>();
        for (JsonNode panel : d.path("panels")) {
            String title = panel.path("title").asText();
            assertThat(ids.add(panel.path("id").asInt())).as("id of %s", title).isTrue();
            assertThat(panel.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as(title).isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
                assertThat(PromQlNames.of(target.path("expr").asText()))
                        .as("%s %s", title, target.path("expr").asText())
                        .isNotEmpty()
                        .allMatch(n -> n.startsWith("podnuma_"));
            }
            JsonNode g = panel.path("gridPos");
            int[] cell = {
                g.path("x").asInt(),
                g.path("y").asInt(),
                g.path("w").asInt(),
                g.path("h").asInt()
            };
            assertThat(cell[0] + cell[2]).as("%s fits 24 columns", title).isLessThanOrEqualTo(24);
            for (int[] other : cells) {
                boolean apart = cell[0] + cell[2] <= other[0]
                        || other[0] + other[2] <= cell[0]
                        || cell[1] + cell[3] <= other[1]
                        || other[1] + other[3] <= cell[1];
                assertThat(apart).as("%s overlaps another panel", title).isTrue();
            }
            cells.add(cell);
        }
    }

    @Test
    void thePanelsShowWhatTheChartPromises() throws IOException {
        SortedSet<String> used = new TreeSet<>();
        for (JsonNode panel : dashboard().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                used.addAll(PromQlNames.of(target.path("expr").asText()));
            }
        }
        assertThat(used)
                .contains(
                        "podnuma_operator_nodes", // nodes per policy by state
                        "podnuma_cpu_manager_exclusive_cpu_allocation_count", // exclusive vs shared per node
                        "podnuma_cpu_manager_shared_pool_size_millicores",
                        "podnuma_cpu_manager_allocation_per_numa", // per NUMA node
                        "podnuma_pin_latency_seconds_bucket", // p50 / p99
                        "podnuma_drift_repaired_total",
                        "podnuma_cgroup_write_errors_total",
                        "podnuma_topology_manager_admission_errors_total", // admission rejections
                        "podnuma_agent_condition"); // ready / kubelet conflict
    }

    @Test
    void jobPolicyAndNodeAreMultiValueLabelQueriesOnTheDatasourceWithAllMatchingEveryValue() throws IOException {
        JsonNode json = dashboard();
        GrafanaDashboard d = new GrafanaDashboard(json);
        assertThat(d.queryVariables())
                .extracting(GrafanaDashboard.Variable::name, GrafanaDashboard.Variable::query)
                .containsExactly(
                        tuple(
                                "job",
                                "label_values({__name__=~\"podnuma_operator_nodes|podnuma_agent_condition\"}, job)"),
                        tuple(
                                "policy",
                                "label_values({__name__=~\"podnuma_operator_nodes|podnuma_agent_condition\","
                                        + " job=~\"$job\"}, policy)"),
                        tuple(
                                "node",
                                "label_values(podnuma_agent_condition{job=~\"$job\", policy=~\"$policy\"}, node)"));
        Set<String> defined = new LinkedHashSet<>(List.of("datasource"));
        for (GrafanaDashboard.Variable v : d.queryVariables()) {
            // "All" as .* rather than Grafana's list of every value: it also matches series without the label (the
            // agents scraped through the operator's ServiceMonitors carry no node or policy) and stays short.
            assertThat(v.multi()).as(v.name()).isTrue();
            assertThat(v.includeAll()).as(v.name()).isTrue();
            assertThat(v.allValue()).as(v.name()).isEqualTo(".*");
            assertThat(v.labelValues()).as(v.name()).hasValueSatisfying(lv -> {
                assertThat(lv.label()).isEqualTo(v.name());
                assertThat(PromQlNames.of(lv.selector())).allMatch(n -> n.startsWith("podnuma_"));
            });
            // Grafana resolves variables in order: a query may use only those above it.
            assertThat(used(v.query())).as("variables %s uses", v.name()).isSubsetOf(defined);
            defined.add(v.name());
        }
        for (JsonNode v : json.at("/templating/list")) {
            if (v.path("type").asText().equals("query")) {
                String name = v.path("name").asText();
                assertThat(v.at("/datasource/uid").asText()).as(name).isEqualTo("${datasource}");
                assertThat(v.path("definition").asText())
                        .as("%s as the editor shows it", name)
                        .isEqualTo(v.path("query").asText());
                assertThat(v.path("refresh").asInt())
                        .as("%s refreshed on time range change", name)
                        .isEqualTo(2);
                assertThat(v.at("/current/value/0").asText())
                        .as("%s starts at All", name)
                        .isEqualTo("$__all");
            }
        }
    }

    @Test
    void everyPanelQueryFiltersByTheVariablesItsSeriesCarry() throws IOException {
        GrafanaDashboard d = new GrafanaDashboard(dashboard());
        Set<String> variables = new HashSet<>(Set.of("__rate_interval"));
        d.queryVariables().forEach(v -> variables.add(v.name()));
        List<String> problems = new ArrayList<>();
        for (GrafanaDashboard.Target t : d.targets()) {
            assertThat(used(t.expr())).as("variables of %s", t).isSubsetOf(variables);
            for (PromQlNames.Selector s : PromQlNames.selectors(t.expr())) {
                Map<String, String> m = s.matchers();
                // The operator's series carry policy as a metric label; a node label on them is the operator pod's
                // node (where a scrape config adds one), not a node of the policy.
                List<String> wanted = s.name().startsWith("podnuma_operator_")
                        ? List.of("job", "policy")
                        : List.of("job", "policy", "node");
                for (String label : wanted) {
                    if (!FILTERS.get(label).equals(m.get(label))) {
                        problems.add(t + ": " + s.name() + " not filtered by " + label + FILTERS.get(label));
                    }
                }
                if (!wanted.contains("node") && m.containsKey("node")) {
                    problems.add(t + ": " + s.name() + " has no node of the agents to filter by");
                }
            }
        }
        assertThat(d.targets()).hasSizeGreaterThanOrEqualTo(8);
        assertThat(problems).isEmpty();
    }

    /** The variables an expression or a query uses, {@code $name} or {@code ${name}}. */
    private static Set<String> used(String expr) {
        Set<String> names = new TreeSet<>();
        Matcher m = VARIABLE_USE.matcher(expr);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
