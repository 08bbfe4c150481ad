package io.podnuma.agent.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.http.Response;
import io.podnuma.agent.http.Route;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final Readiness readiness = new Readiness(now::get, Duration.ofSeconds(30));

    @Test
    void startedAsSoonAsReadyWithinTheGrace() {
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(answer(readiness.startupz())).isEqualTo("503 " + Readiness.NOT_STARTED_REASON);
        assertThat(answer(readiness.readyz())).isEqualTo("503 " + Readiness.NOT_READY_REASON);

        readiness.markReady();

        assertThat(answer(readiness.startupz())).isEqualTo("200 started\n");
        assertThat(answer(readiness.readyz())).isEqualTo("200 ready\n");
    }

    @Test
    void startedButNotReadyOnceTheGraceHasPassedSoTheStartupProbeRestartsNoAgentThatCannotSync() {
        now.addAndGet(Duration.ofSeconds(30).minusNanos(1).toNanos());
        assertThat(readiness.isStarted()).isFalse();

        now.addAndGet(1);

        assertThat(answer(readiness.startupz())).isEqualTo("200 started\n");
        assertThat(answer(readiness.readyz())).isEqualTo("503 " + Readiness.NOT_READY_REASON);
        assertThat(answer(readiness.healthz())).isEqualTo("200 ok\n");
    }

    private static String answer(Route route) {
        Response r = route.get();
        return r.status() + " " + r.body();
    }
}
