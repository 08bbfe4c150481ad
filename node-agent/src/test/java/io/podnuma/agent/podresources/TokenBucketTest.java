package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bucket on a hand-driven clock: burst first, then qps, never more than burst after idling. */
class TokenBucketTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private int takeAll(TokenBucket bucket) {
        int taken = 0;
        while (bucket.tryAcquire()) {
            taken++;
        }
        return taken;
    }

    @Test
    void kubeletDefaultsAllowABurstOfTenThenOneCallPerTenMilliseconds() {
        TokenBucket bucket =
                new TokenBucket(RateLimitInterceptor.DEFAULT_QPS, RateLimitInterceptor.DEFAULT_BURST, now::get);

        assertThat(takeAll(bucket)).isEqualTo(10);
        now.addAndGet(9_999_999L);
        assertThat(bucket.tryAcquire())
                .as("9.99 ms later: not a whole token yet")
                .isFalse();
        now.addAndGet(1L);
        assertThat(bucket.tryAcquire()).as("10 ms later: one token").isTrue();
        assertThat(bucket.tryAcquire()).isFalse();
        now.addAndGet(50_000_000L);
        assertThat(takeAll(bucket)).as("50 ms at 100 QPS").isEqualTo(5);
    }

    @Test
    void idleTimeNeverBuysMoreThanTheBurst() {
        TokenBucket bucket = new TokenBucket(5, 3, now::get);
        assertThat(takeAll(bucket)).isEqualTo(3);
        now.addAndGet(3_600_000_000_000L);
        assertThat(takeAll(bucket)).isEqualTo(3);
    }

    @Test
    void fractionalRatesAccumulate() {
        TokenBucket bucket = new TokenBucket(0.5, 1, now::get);
        assertThat(bucket.tryAcquire()).isTrue();
        now.addAndGet(1_000_000_000L);
        assertThat(bucket.tryAcquire()).isFalse();
        now.addAndGet(1_000_000_000L);
        assertThat(bucket.tryAcquire()).isTrue();
    }

    @Test
    void badSettingsNameTheSettingAndAnExample() {
        assertThatThrownBy(() -> new TokenBucket(0, 10))
                .hasMessage("PodResources rate limit qps 0.0 is invalid: use a positive number, e.g. 100");
        assertThatThrownBy(() -> new TokenBucket(Double.NaN, 10)).hasMessageContaining("qps NaN");
        assertThatThrownBy(() -> new TokenBucket(100, 0))
                .hasMessage("PodResources rate limit burst 0 is invalid: use 1 or more, e.g. 10");
    }
}
