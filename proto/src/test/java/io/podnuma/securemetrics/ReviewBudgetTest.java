package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReviewBudgetTest {

    private final MutableClock clock = new MutableClock();

    private ReviewBudget budget(int burst, int perSecond) {
        return new ReviewBudget(new ReviewRate(burst, perSecond), clock::nanoTime);
    }

    private static int takeAll(ReviewBudget b) {
        int n = 0;
        while (b.tryTake()) {
            n++;
        }
        return n;
    }

    @Test
    void startsFullWithTheBurstThenRefusesWithoutTime() {
        ReviewBudget b = budget(20, 5);
        assertThat(b.untilNext()).isZero();
        assertThat(takeAll(b)).isEqualTo(20);
        assertThat(b.tryTake()).isFalse();
        assertThat(b.untilNext()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void refillsAtTheRateExactly() {
        ReviewBudget b = budget(20, 5);
        takeAll(b);
        clock.advance(Duration.ofMillis(199));
        assertThat(b.tryTake()).isFalse();
        assertThat(b.untilNext()).isEqualTo(Duration.ofMillis(1));
        clock.advance(Duration.ofMillis(1));
        assertThat(b.tryTake()).isTrue();
        assertThat(b.tryTake()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(takeAll(b)).isEqualTo(5);
    }

    @Test
    void neverHoldsMoreThanTheBurstEvenAfterYears() {
        ReviewBudget b = budget(3, 10_000);
        takeAll(b);
        clock.advance(Duration.ofDays(3650));
        assertThat(takeAll(b)).isEqualTo(3);
    }

    @Test
    void aClockThatStandsStillOrGoesBackGivesNothing() {
        long[] now = {1_000_000_000L};
        ReviewBudget b = new ReviewBudget(new ReviewRate(1, 1), () -> now[0]);
        assertThat(b.tryTake()).isTrue();
        now[0] -= 5_000_000_000L;
        assertThat(b.tryTake()).isFalse();
        now[0] += 1_000_000_000L;
        assertThat(b.tryTake()).as("a second after the backward step").isTrue();
    }

    @Test
    void aFractionOfAReviewAddsUpAcrossCalls() {
        ReviewBudget b = budget(1, 3);
        takeAll(b);
        for (int i = 0; i < 333; i++) {
            clock.advance(Duration.ofMillis(1));
            assertThat(b.tryTake()).as("after %d ms", i + 1).isFalse();
        }
        assertThat(b.untilNext()).isEqualTo(Duration.ofNanos(333_334));
        clock.advance(Duration.ofNanos(333_334));
        assertThat(b.tryTake()).isTrue();
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
