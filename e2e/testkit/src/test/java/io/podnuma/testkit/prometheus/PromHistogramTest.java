package io.podnuma.testkit.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromHistogramTest {

    static final String BEFORE = """
            # TYPE podnuma_pin_latency_seconds histogram
            podnuma_pin_latency_seconds_bucket{le="0.0001"} 0
            podnuma_pin_latency_seconds_bucket{le="0.00025"} 1
            podnuma_pin_latency_seconds_bucket{le="0.001"} 2
            podnuma_pin_latency_seconds_bucket{le="0.01"} 2
            podnuma_pin_latency_seconds_bucket{le="+Inf"} 2
            podnuma_pin_latency_seconds_count 2
            podnuma_other_bucket{le="0.001"} 99
            """;

    static final String AFTER = """
            podnuma_pin_latency_seconds_bucket{le="0.0001"} 0
            podnuma_pin_latency_seconds_bucket{le="0.00025"} 51
            podnuma_pin_latency_seconds_bucket{le="0.001"} 100
            podnuma_pin_latency_seconds_bucket{le="0.01"} 101
            podnuma_pin_latency_seconds_bucket{le="+Inf"} 102
            """;

    @Test
    void quantilesOfTheObservationsBetweenTwoScrapes() {
        PromHistogram delta = PromHistogram.parse(AFTER, "podnuma_pin_latency_seconds")
                .minus(PromHistogram.parse(BEFORE, "podnuma_pin_latency_seconds"));
        assertThat(delta.count()).isEqualTo(100);
        assertThat(delta.quantileUpperBound(0.5)).isEqualTo(0.00025); // 50 in the 250 µs bucket
        assertThat(delta.quantileUpperBound(0.51)).isEqualTo(0.001);
        assertThat(delta.quantileUpperBound(0.99)).isEqualTo(0.01);
        assertThat(delta.quantileUpperBound(1.0)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void labelsBeforeLeAndOtherMetricsAreHandled() {
        PromHistogram h =
                PromHistogram.parse("x_bucket{node=\"a\",le=\"0.5\"} 3.0\nx_bucket{node=\"a\",le=\"+Inf\"} 4.0\n", "x");
        assertThat(h.count()).isEqualTo(4);
        assertThat(h.quantileUpperBound(0.75)).isEqualTo(0.5);
        assertThat(PromHistogram.parse("y_bucket{le=\"1\"} 5\n", "x").count()).isZero();
        assertThat(PromHistogram.parse("", "x").quantileUpperBound(0.5)).isNaN();
        assertThatThrownBy(() -> PromHistogram.parse("x_bucket{node=\"a\"} 1\n", "x"))
                .hasMessageContaining("without a le label");
    }
}
