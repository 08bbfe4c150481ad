package io.podnuma.helm.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.helm.ChartFiles;
import io.podnuma.testkit.prometheus.PromQlNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard file: well formed, every panel on the datasource variable, and together they show what the
 * chart promises. That the metrics exist is checked against live scrapes by the e2e ExportedMetricsIT.
 */
class DashboardTest {

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
}
