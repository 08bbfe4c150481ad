package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetricsGateTest {

    private final FakeReviews reviews = new FakeReviews();
    private final MutableClock clock = new MutableClock();
    private final MetricsGate gate = gate(Duration.ofSeconds(60), ReviewRate.DEFAULT);

    private MetricsGate gate(Duration ttl, ReviewRate rate) {
        return new MetricsGate(
                reviews, NonResourceRequest.SCRAPE, ttl, ttl.dividedBy(6), rate.bucket(clock::nanoTime), clock);
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(
            nullValues = "NULL",
            value = {
                "NULL, UNAUTHENTICATED, no Authorization header, 0, 0",
                "Basic dXNlcjpwYXNz, UNAUTHENTICATED, no usable bearer token, 0, 0",
                "Bearer forged, UNAUTHENTICATED, does not accept this token, 1, 0",
                "Bearer stranger, FORBIDDEN, 'user \"system:serviceaccount:mon:stranger\" may not get /metrics', 1, 1",
                "Bearer reader, ALLOWED, may get /metrics, 1, 1",
                "Bearer down, UNAVAILABLE, connection refused, 1, 0",
            })
    void decidesFromTheTokenReviewThenTheAccessReview(
            String header, Verdict verdict, String reason, int tokenReviews, int accessReviews) {
        Decision d = gate.admit(header);
        assertThat(d.verdict()).isEqualTo(verdict);
        assertThat(d.reason()).contains(reason);
        assertThat(reviews.tokenReviews).hasValue(tokenReviews);
        assertThat(reviews.accessReviews).hasValue(accessReviews);
    }

    @Test
    void oneReviewPerTokenWithinTheTtlThenAgain() {
        for (int i = 0; i < 60; i++) {
            assertThat(gate.admit("Bearer reader").verdict()).isEqualTo(Verdict.ALLOWED);
            assertThat(gate.admit("Bearer stranger").verdict()).isEqualTo(Verdict.FORBIDDEN);
            clock.advance(Duration.ofMillis(999));
        }
        assertThat(reviews.tokenReviews).hasValue(2);
        assertThat(reviews.accessReviews).hasValue(2);
        clock.advance(Duration.ofSeconds(1));
        gate.admit("Bearer reader");
        assertThat(reviews.tokenReviews).hasValue(3);
    }

    @Test
    void aRejectedTokenIsReviewedAgainSoonerAndAFailureIsNeverCached() {
        gate.admit("Bearer forged");
        clock.advance(Duration.ofSeconds(9));
        gate.admit("Bearer forged");
        assertThat(reviews.tokenReviews).hasValue(1);
        clock.advance(Duration.ofSeconds(1));
        gate.admit("Bearer forged");
        assertThat(reviews.tokenReviews).hasValue(2);

        gate.admit("Bearer down");
        gate.admit("Bearer down");
        assertThat(reviews.tokenReviews).hasValue(4);
    }

    @Test
    void aZeroTtlAsksEveryTime() {
        MetricsGate uncached = gate(Duration.ZERO, ReviewRate.DEFAULT);
        uncached.admit("Bearer reader");
        uncached.admit("Bearer reader");
        assertThat(reviews.tokenReviews).hasValue(2);
        assertThat(uncached.cachedTokens()).isZero();
    }

    @Test
    void aFloodOfTokensCannotGrowTheCache() {
        MetricsGate generous = gate(Duration.ofSeconds(60), new ReviewRate(ReviewRate.MAX, ReviewRate.MAX));
        for (int i = 0; i < MetricsGate.MAX_ENTRIES * 3; i++) {
            generous.admit("Bearer random-" + i);
        }
        assertThat(generous.cachedTokens()).isEqualTo(MetricsGate.MAX_ENTRIES);
    }

    @Test
    void aFloodOfDistinctTokensCostsAtMostTheBurstWhileACachedTokenIsStillAllowed() {
        assertThat(gate.admit("Bearer reader").verdict()).isEqualTo(Verdict.ALLOWED);
        int before = reviews.tokenReviews.get();
        int throttled = 0;
        for (int i = 0; i < 1000; i++) {
            Decision d = gate.admit("Bearer random-" + i);
            if (d.verdict() == Verdict.THROTTLED) {
                throttled++;
                assertThat(d.retryAfterSeconds()).hasValue(1L);
            } else {
                assertThat(d.verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
            }
            if (i % 100 == 0) {
                assertThat(gate.admit("Bearer reader").verdict()).isEqualTo(Verdict.ALLOWED);
            }
        }
        int flood = reviews.tokenReviews.get() - before;
        assertThat(flood).as("the reader's review took one of the burst").isEqualTo(ReviewRate.DEFAULT.burst() - 1);
        assertThat(throttled).isEqualTo(1000 - flood);
        assertThat(gate.admit("Bearer reader").verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(reviews.tokenReviews.get() - before).isEqualTo(flood);
    }

    @Test
    void aThrottledScrapeNamesTheLimitAndIsNotCached() {
        MetricsGate tight = gate(Duration.ofSeconds(60), new ReviewRate(1, 2));
        assertThat(tight.admit("Bearer stranger").verdict()).isEqualTo(Verdict.FORBIDDEN);
        Decision d = tight.admit("Bearer reader");
        assertThat(d.verdict()).isEqualTo(Verdict.THROTTLED);
        assertThat(d.reason())
                .isEqualTo("too many bearer tokens without a recent decision: 1 at once, then 2 a second, are"
                        + " checked with the API server; retry in 1 s (tokens checked recently are still answered)");
        assertThat(d.retryAfter()).hasValue(Duration.ofMillis(500));
        assertThat(reviews.tokenReviews).hasValue(1);

        clock.advance(Duration.ofMillis(500));
        assertThat(tight.admit("Bearer reader").verdict())
                .as("reviewed once the budget refills, not answered from a cached refusal")
                .isEqualTo(Verdict.ALLOWED);
        assertThat(reviews.tokenReviews).hasValue(2);
    }

    @Test
    void theFloodIsReviewedAtTheRateAsTimeGoesOn() {
        for (int i = 0; i < 100; i++) {
            gate.admit("Bearer first-" + i);
        }
        assertThat(reviews.tokenReviews).hasValue(ReviewRate.DEFAULT.burst());
        clock.advance(Duration.ofSeconds(2));
        for (int i = 0; i < 100; i++) {
            gate.admit("Bearer second-" + i);
        }
        assertThat(reviews.tokenReviews).hasValue(ReviewRate.DEFAULT.burst() + 2 * ReviewRate.DEFAULT.perSecond());
    }

    @Test
    void aDecisionCarriesARetryDelayExactlyWhenThrottled() {
        assertThatThrownBy(() -> new Decision(Verdict.THROTTLED, "busy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("THROTTLED");
        assertThatThrownBy(() -> new Decision(Verdict.FORBIDDEN, "no", java.util.Optional.of(Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not FORBIDDEN");
    }

    @Test
    void refusesTtlsThatMakeNoSense() {
        assertThatThrownBy(() -> new MetricsGate(
                        reviews,
                        NonResourceRequest.SCRAPE,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        ReviewRate.DEFAULT.bucket(clock::nanoTime),
                        clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most the allowed one");
        assertThatThrownBy(() -> new MetricsGate(
                        reviews,
                        NonResourceRequest.SCRAPE,
                        Duration.ofSeconds(-1),
                        Duration.ZERO,
                        ReviewRate.DEFAULT.bucket(clock::nanoTime),
                        clock))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
