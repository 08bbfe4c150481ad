package io.podnuma.agent.nri;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void delaysDoubleFromMinUpToMaxAndResetToMin() {
        Backoff b = Backoff.start(Duration.ofMillis(100), Duration.ofMillis(1000));
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            delays.add(b.delay().toMillis());
            b = b.next();
        }

        assertThat(delays).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
        assertThat(b.reset().delay()).isEqualTo(Duration.ofMillis(100));
    }
}
