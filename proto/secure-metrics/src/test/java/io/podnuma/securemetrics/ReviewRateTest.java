package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReviewRateTest {

    @Test
    void itsBucketStartsFullWithTheBurstAndRefillsAtTheRate() {
        MutableClock clock = new MutableClock();
        var bucket = ReviewRate.DEFAULT.bucket(clock::nanoTime);
        int taken = 0;
        while (bucket.tryTake()) {
            taken++;
        }
        assertThat(taken).isEqualTo(20);
        assertThat(bucket.untilNext()).isEqualTo(Duration.ofMillis(200));
    }

    @ParameterizedTest
    @CsvSource({"0, 5", "20, 0", "10001, 5", "20, -1"})
    void refusesRatesThatMakeNoSense(int burst, int perSecond) {
        assertThatThrownBy(() -> new ReviewRate(burst, perSecond))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed whole numbers 1 to 10000");
    }

    @Test
    void roundsTheRetryUpToWholeSecondsOfAtLeastOne() {
        assertThat(Decision.wholeSeconds(Duration.ofNanos(1))).isEqualTo(1);
        assertThat(Decision.wholeSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(Decision.wholeSeconds(Duration.ofSeconds(2))).isEqualTo(2);
        assertThat(Decision.wholeSeconds(Duration.ofMillis(2001))).isEqualTo(3);
    }
}
