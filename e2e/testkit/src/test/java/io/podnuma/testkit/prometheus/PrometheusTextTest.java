package io.podnuma.testkit.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    static final String TEXT = """
            # HELP podnuma_pods_pinned Pods with exclusive CPUs.
            # TYPE podnuma_pods_pinned gauge
            podnuma_pods_pinned 2.0
            # TYPE podnuma_assignments gauge
            podnuma_assignments{resource="cpu",type="exclusive"} 3.0
            podnuma_assignments{resource="cpu",type="shared"} 5.0
            # TYPE podnuma_pin_latency_seconds histogram
            podnuma_pin_latency_seconds_bucket{le="0.001"} 4
            podnuma_pin_latency_seconds_bucket{le="+Inf"} 5
            podnuma_pin_latency_seconds_count 5
            podnuma_pin_latency_seconds_sum 0.25
            """;

    @Test
    void strictParseReadsTypesSamplesAndLabels() {
        PrometheusText t = PrometheusText.parse(TEXT);
        assertThat(t.type("podnuma_pods_pinned")).contains("gauge");
        assertThat(t.type("podnuma_missing")).isEmpty();
        assertThat(t.value("podnuma_pods_pinned")).isEqualTo(2.0);
        assertThat(t.value("podnuma_assignments", Map.of("resource", "cpu", "type", "shared")))
                .isEqualTo(5.0);
        assertThat(t.samples()).hasSize(7);
        PrometheusText.Sample count = t.samples().stream()
                .filter(s -> s.name().equals("podnuma_pin_latency_seconds_count"))
                .findFirst()
                .orElseThrow();
        assertThat(t.familyOf(count)).isEqualTo("podnuma_pin_latency_seconds");
    }

    @Test
    void aSummarysCountAndSumBelongToTheSummary() {
        PrometheusText t = PrometheusText.parse("""
                # TYPE jvm_gc_collection_seconds summary
                jvm_gc_collection_seconds_count{gc="Copy"} 3
                jvm_gc_collection_seconds_sum{gc="Copy"} 0.012
                jvm_gc_collection_seconds_bucket{gc="Copy"} 1
                """);

        assertThat(t.samples().subList(0, 2)).extracting(t::familyOf).containsOnly("jvm_gc_collection_seconds");
        // A summary has no buckets: such a sample belongs to no family.
        assertThatThrownBy(() -> t.familyOf(t.samples().get(2))).isInstanceOf(AssertionError.class);
    }

    @Test
    void strictParseFailsOnWhatItCannotRead() {
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE a gauge\n# TYPE a gauge\n"))
                .hasMessageContaining("repeated TYPE");
        assertThatThrownBy(() -> PrometheusText.parse("# EOF\n")).hasMessageContaining("unexpected comment");
        assertThatThrownBy(() -> PrometheusText.parse("novalue\n")).hasMessageContaining("no value");
        assertThatThrownBy(() -> PrometheusText.parse("1bad 2\n")).hasMessageContaining("bad metric name");
        PrometheusText t = PrometheusText.parse(TEXT);
        assertThatThrownBy(() -> t.value("podnuma_assignments")).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> t.familyOf(new PrometheusText.Sample("orphan", Map.of(), 1)))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void oneSampleLineAsWrittenOrNaN() {
        assertThat(PrometheusText.sampleValue(TEXT, "podnuma_pin_latency_seconds_count"))
                .isEqualTo(5.0);
        assertThat(PrometheusText.sampleValue(TEXT, "podnuma_assignments{resource=\"cpu\",type=\"exclusive\"}"))
                .isEqualTo(3.0);
        // a name that is the prefix of another is not that other
        assertThat(PrometheusText.sampleValue(TEXT, "podnuma_pods")).isNaN();
        assertThat(PrometheusText.sampleValue("", "x")).isNaN();
    }

    @Test
    void sampleLinesOfNamedMetrics() {
        assertThat(PrometheusText.lines(TEXT, List.of("podnuma_assignments", "podnuma_pods_pinned")))
                .containsExactly(
                        "podnuma_pods_pinned 2.0",
                        "podnuma_assignments{resource=\"cpu\",type=\"exclusive\"} 3.0",
                        "podnuma_assignments{resource=\"cpu\",type=\"shared\"} 5.0");
    }
}
