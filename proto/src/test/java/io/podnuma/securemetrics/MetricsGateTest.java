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
    private final MetricsGate gate = MetricsGate.forScrapes(reviews, Duration.ofSeconds(60), clock);

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
        MetricsGate uncached = MetricsGate.forScrapes(reviews, Duration.ZERO, clock);
        uncached.admit("Bearer reader");
        uncached.admit("Bearer reader");
        assertThat(reviews.tokenReviews).hasValue(2);
        assertThat(uncached.cachedTokens()).isZero();
    }

    @Test
    void aFloodOfTokensCannotGrowTheCache() {
        for (int i = 0; i < MetricsGate.MAX_ENTRIES * 3; i++) {
            gate.admit("Bearer random-" + i);
        }
        assertThat(gate.cachedTokens()).isEqualTo(MetricsGate.MAX_ENTRIES);
    }

    @Test
    void refusesTtlsThatMakeNoSense() {
        assertThatThrownBy(() -> new MetricsGate(
                        reviews, NonResourceRequest.SCRAPE, Duration.ofSeconds(1), Duration.ofSeconds(2), clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most the allowed one");
        assertThatThrownBy(() -> new MetricsGate(
                        reviews, NonResourceRequest.SCRAPE, Duration.ofSeconds(-1), Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
