package io.podnuma.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bucket on a hand-driven clock: burst first, then the rate, never more than the burst after idling. */
class TokenBucketTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private TokenBucket bucket(double perSecond, int burst) {
        return new TokenBucket(perSecond, burst, now::get);
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private static int takeAll(TokenBucket b) {
        int n = 0;
        while (b.tryTake()) {
            n++;
        }
        return n;
    }

    @Test
    void startsFullWithTheBurstThenRefusesWithoutTime() {
        TokenBucket b = bucket(5, 20);
        assertThat(b.untilNext()).isZero();
        assertThat(takeAll(b)).isEqualTo(20);
        assertThat(b.tryTake()).isFalse();
        assertThat(b.untilNext()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void refillsAtTheRateExactly() {
        TokenBucket b = bucket(5, 20);
        takeAll(b);
        advance(Duration.ofMillis(199));
        assertThat(b.tryTake()).isFalse();
        assertThat(b.untilNext()).isEqualTo(Duration.ofMillis(1));
        advance(Duration.ofMillis(1));
        assertThat(b.tryTake()).isTrue();
        assertThat(b.tryTake()).isFalse();
        advance(Duration.ofSeconds(1));
        assertThat(takeAll(b)).isEqualTo(5);
    }

    @Test
    void kubeletDefaultsAllowABurstOfTenThenOneCallPerTenMilliseconds() {
        // The kubelet's PodResources limiter: 100 QPS, burst 10.
        TokenBucket b = bucket(100, 10);

        assertThat(takeAll(b)).isEqualTo(10);
        now.addAndGet(9_999_999L);
        assertThat(b.tryTake()).as("9.99 ms later: not a whole token yet").isFalse();
        now.addAndGet(1L);
        assertThat(b.tryTake()).as("10 ms later: one token").isTrue();
        assertThat(b.tryTake()).isFalse();
        advance(Duration.ofMillis(50));
        assertThat(takeAll(b)).as("50 ms at 100 QPS").isEqualTo(5);
    }

    @Test
    void neverHoldsMoreThanTheBurstEvenAfterYears() {
        TokenBucket b = bucket(10_000, 3);
        takeAll(b);
        advance(Duration.ofDays(3650));
        assertThat(takeAll(b)).isEqualTo(3);
    }

    @Test
    void theSlowestRateAndTheLargestBurstSurviveTheLongestWait() {
        // The agent's bounds: a billionth of a call a second, a burst of a million.
        now.set(0);
        TokenBucket slow = bucket(0.000000001, 1_000_000);
        assertThat(takeAll(slow)).isEqualTo(1_000_000);
        now.set(Long.MAX_VALUE);
        assertThat(takeAll(slow)).as("292 years at one call a billion seconds").isEqualTo(9);
    }

    @Test
    void aClockThatStandsStillOrGoesBackGivesNothing() {
        TokenBucket b = bucket(1, 1);
        assertThat(b.tryTake()).isTrue();
        now.addAndGet(-5_000_000_000L);
        assertThat(b.tryTake()).isFalse();
        now.addAndGet(1_000_000_000L);
        assertThat(b.tryTake()).as("a second after the backward step").isTrue();
    }

    @Test
    void aFractionOfATokenAddsUpAcrossCalls() {
        TokenBucket b = bucket(3, 1);
        takeAll(b);
        for (int i = 0; i < 333; i++) {
            advance(Duration.ofMillis(1));
            assertThat(b.tryTake()).as("after %d ms", i + 1).isFalse();
        }
        assertThat(b.untilNext()).isEqualTo(Duration.ofNanos(333_334));
        now.addAndGet(333_334L);
        assertThat(b.tryTake()).isTrue();
    }

    @Test
    void fractionalRatesAccumulateHoweverOftenTheyAreAsked() {
        TokenBucket half = bucket(0.5, 1);
        assertThat(half.tryTake()).isTrue();
        advance(Duration.ofSeconds(1));
        assertThat(half.tryTake()).isFalse();
        assertThat(half.untilNext()).isEqualTo(Duration.ofSeconds(1));
        advance(Duration.ofSeconds(1));
        assertThat(half.tryTake()).isTrue();

        // A tenth of a billionth of a token a nanosecond: summed call by call it would round to nothing.
        TokenBucket tenth = bucket(0.1, 1);
        assertThat(tenth.tryTake()).isTrue();
        long asked = 0;
        while (!tenth.tryTake()) {
            now.addAndGet(1_000L);
            asked++;
        }
        assertThat(asked).as("calls a microsecond apart until one token").isEqualTo(10_000_000L);
    }

    @Test
    void describesItselfForRefusals() {
        assertThat(bucket(5, 20).describe()).isEqualTo("20 at once, then 5 a second");
        assertThat(bucket(0.5, 1).describe()).isEqualTo("1 at once, then 0.5 a second");
    }

    @Test
    void badSettingsSayWhatIsAllowed() {
        assertThatThrownBy(() -> new TokenBucket(0, 10))
                .hasMessage("token bucket rate 0.0 a second: allowed a number above 0, e.g. 100 or 0.5");
        assertThatThrownBy(() -> new TokenBucket(Double.NaN, 10)).hasMessageContaining("rate NaN");
        assertThatThrownBy(() -> new TokenBucket(Double.POSITIVE_INFINITY, 10)).hasMessageContaining("rate Infinity");
        assertThatThrownBy(() -> new TokenBucket(100, 0))
                .hasMessage("token bucket burst 0: allowed 1 or more, e.g. 10");
    }
}
