package io.podnuma.testkit.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PromQlNamesTest {

    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of("up", List.of("up")),
                Arguments.of("up{job=~\"podnuma-agent.*\"} == 0", List.of("up")),
                Arguments.of(
                        "histogram_quantile(0.99, sum by (le, pod) (rate(podnuma_pin_latency_seconds_bucket[10m])))"
                                + " > 0.01",
                        List.of("podnuma_pin_latency_seconds_bucket")),
                Arguments.of(
                        "sum(max by (policy) (podnuma_operator_nodes{state=\"matched\"}))"
                                + " - (count(up{job=\"a\"} == 1) or vector(0)) > 0",
                        List.of("podnuma_operator_nodes", "up")),
                Arguments.of(
                        "podnuma_cpu_manager_shared_pool_size_millicores / 1000"
                                + " + on (pod) group_left (node) kube_pod_info offset 5m",
                        List.of("kube_pod_info", "podnuma_cpu_manager_shared_pool_size_millicores")),
                Arguments.of(
                        "sum without (instance) (increase(a_total[$__rate_interval])) / ignoring(x) b_total",
                        List.of("a_total", "b_total")),
                Arguments.of("label_replace(m, \"dst\", \"$1\", \"src\", \"(sum)\") * 1e3", List.of("m")),
                Arguments.of("count(x:recorded:rate5m) by (le) > bool 2", List.of("x:recorded:rate5m")),
                Arguments.of("topk(3, sum(rate(c[${interval}])) by (pod))", List.of("c")),
                Arguments.of("vector(1) and on() absent(nothing)", List.of("nothing")));
    }

    @ParameterizedTest
    @MethodSource("expressions")
    void namesAreTheSelectedMetricsOnly(String expression, List<String> names) {
        assertThat(PromQlNames.of(expression)).as(expression).containsExactlyElementsOf(names);
    }

    @Test
    void selectorsAreEachMetricWithItsMatchersAsWritten() {
        assertThat(PromQlNames.selectors("sum by (pod) (increase(a_total{job=~\"$job\", x!=\"a,b}\"}[5m]))"
                        + " / on (pod) b{node=\"n\\\"1\"} + c"))
                .containsExactly(
                        new PromQlNames.Selector("a_total", Map.of("job", "=~\"$job\"", "x", "!=\"a,b}\"")),
                        new PromQlNames.Selector("b", Map.of("node", "=\"n\\\"1\"")),
                        new PromQlNames.Selector("c", Map.of()));
    }
}
