package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

    @Test
    void nearestRankOnOneToHundred() {
        long[] samples = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray(); // unsorted on purpose
        LatencySummary s = LatencySummary.of(samples);
        assertThat(s.count()).isEqualTo(100);
        assertThat(s.p50Nanos()).isEqualTo(50);
        assertThat(s.p99Nanos()).isEqualTo(99);
        assertThat(s.maxNanos()).isEqualTo(100);
        assertThat(s.meanNanos()).isEqualTo(51); // 50.5 rounded
        assertThat(samples[0]).as("the caller's array is left alone").isEqualTo(100);
    }

    @Test
    void smallSetsTakeMeasuredValues() {
        assertThat(LatencySummary.of(new long[] {7})).isEqualTo(new LatencySummary(1, 7, 7, 7, 7));
        LatencySummary three = LatencySummary.of(new long[] {30, 10, 20});
        assertThat(three.p50Nanos()).isEqualTo(20);
        assertThat(three.p99Nanos()).isEqualTo(30);
        // 1,000 samples: p99 is the 990th, one outlier above it does not move it
        long[] many =
                LongStream.range(0, 1000).map(i -> i == 999 ? 1_000_000 : i).toArray();
        assertThat(LatencySummary.of(many).p99Nanos()).isEqualTo(989);
        assertThat(LatencySummary.of(many).maxNanos()).isEqualTo(1_000_000);
    }

    @Test
    void noSamplesIsAnError() {
        assertThatThrownBy(() -> LatencySummary.of(new long[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no samples");
    }
}
