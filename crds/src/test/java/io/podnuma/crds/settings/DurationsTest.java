package io.podnuma.crds.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    private static final Duration MIN = Duration.ofMillis(100);
    private static final Duration MAX = Duration.ofHours(2);

    @Test
    void readsEachUnitAndTheirSums() {
        assertThat(Durations.within("500ms", MIN, MAX)).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.within("10s", MIN, MAX)).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.within("1m30s", MIN, MAX)).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.within("1h", MIN, MAX)).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.within("100ms", MIN, MAX)).isEqualTo(MIN);
        assertThat(Durations.within("2h", MIN, MAX)).isEqualTo(MAX);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10", "", "5 minutes", "1d", "-1s", "99ms", "2h1ms", "1.5s", "s"})
    void noDurationAndOneOutOfRangeGetTheSameAnswerWithTheRange(String value) {
        assertThatThrownBy(() -> Durations.within(value, MIN, MAX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowed a duration such as 500ms, 10s, 1m30s or 1h (units ms, s, m, h) from 100ms to 2h");
    }

    @Test
    void formatWritesTheShortestFormThatReadsBack() {
        for (Duration d : new Duration[] {
            Duration.ZERO,
            Duration.ofMillis(1),
            Duration.ofSeconds(90),
            Duration.ofMinutes(10),
            Duration.ofMillis(3_723_004)
        }) {
            String text = Durations.format(d);
            assertThat(Durations.within(text, Duration.ZERO, Duration.ofDays(1)))
                    .as(text)
                    .isEqualTo(d);
        }
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofSeconds(600))).isEqualTo("10m");
        assertThat(Durations.format(Duration.ofMillis(3_723_004))).isEqualTo("1h2m3s4ms");
    }
}
