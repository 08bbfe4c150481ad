package io.podnuma.testkit.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GrafanaDashboardTest {

    private static final String EXPR =
            "sum by (le) (rate(m_bucket{job=~\"$job\", node=~\"${node}\"}[$__rate_interval]))";

    @Test
    void oneValueIsRegexEscapedInsideThePromQlStringAndSeveralAreAnAlternation() {
        assertThat(GrafanaDashboard.interpolate(
                        EXPR, Map.of("job", List.of("a.b"), "node", List.of("n-1", "n(2)")), Map.of(), "1m"))
                .isEqualTo("sum by (le) (rate(m_bucket{job=~\"a\\\\.b\", node=~\"(n-1|n\\\\(2\\\\))\"}[1m]))");
        // A backslash in a value: escaped, two in the regex; four in the PromQL string.
        assertThat(GrafanaDashboard.interpolate("{job=~\"$job\"}", Map.of("job", List.of("a\\b")), Map.of(), "1m"))
                .isEqualTo("{job=~\"a\\\\\\\\b\"}");
    }

    @Test
    void allIsTheAllValueAsItIsAndAVariableWithoutAValueIsRefused() {
        assertThat(GrafanaDashboard.interpolate(EXPR, Map.of(), Map.of("job", ".*", "node", ".*"), "30s"))
                .isEqualTo("sum by (le) (rate(m_bucket{job=~\".*\", node=~\".*\"}[30s]))");
        assertThatThrownBy(() -> GrafanaDashboard.interpolate(EXPR, Map.of("job", List.of("a")), Map.of(), "1m"))
                .hasMessageContaining("no value for $node");
    }

    @Test
    void aLabelValuesVariableIsTheCountByItsLabelOfItsSelector() throws Exception {
        GrafanaDashboard d = new GrafanaDashboard(new ObjectMapper().readTree("""
                {"templating": {"list": [
                  {"name": "datasource", "type": "datasource", "query": "prometheus"},
                  {"name": "node", "type": "query", "query": "label_values(up{job=~\\"$job\\"}, node)",
                   "multi": true, "includeAll": true, "allValue": ".*"},
                  {"name": "pod", "type": "query", "query": {"query": "label_values(pod)"}}
                ]},
                "panels": [{"title": "p", "targets": [{"refId": "A", "expr": "up"}]}]}
                """));
        assertThat(d.queryVariables())
                .extracting(GrafanaDashboard.Variable::name)
                .containsExactly("node", "pod");
        GrafanaDashboard.Variable node = d.queryVariables().get(0);
        assertThat(node.allValue()).isEqualTo(".*");
        assertThat(node.asPromQl()).isEqualTo("count by (node) (up{job=~\"$job\"})");
        assertThat(d.queryVariables().get(1).labelValues()).isEmpty();
        assertThat(d.targets()).containsExactly(new GrafanaDashboard.Target("p", "A", "up"));
    }
}
