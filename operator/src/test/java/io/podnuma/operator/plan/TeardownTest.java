package io.podnuma.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeardownTest {

    private static final Instant DELETED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    @Test
    void noNodeReportingThePolicyReleasesIt() {
        assertThat(Teardown.next("p", List.of(), DELETED, DELETED, TIMEOUT)).isInstanceOf(Teardown.Release.class);
        assertThat(Teardown.next("p", List.of(), DELETED, DELETED.plus(Duration.ofDays(1)), TIMEOUT))
                .isInstanceOf(Teardown.Release.class);
    }

    @Test
    void nodesStillReportingMakeItWaitAndLookAgainSoon() {
        Teardown.Step step = Teardown.next("p", List.of("n1", "n2"), DELETED, DELETED.plusSeconds(10), TIMEOUT);
        assertThat(step).isEqualTo(new Teardown.Wait(List.of("n1", "n2"), Teardown.RECHECK));
    }

    @Test
    void justBeforeTheDeadlineItLooksAgainAtTheDeadline() {
        Teardown.Step step =
                Teardown.next("p", List.of("n1"), DELETED, DELETED.plus(TIMEOUT).minusSeconds(2), TIMEOUT);
        assertThat(step).isEqualTo(new Teardown.Wait(List.of("n1"), Duration.ofSeconds(2)));
    }

    @Test
    void atTheDeadlineItGivesUpWithAWarningNamingTheNodes() {
        Teardown.Step step = Teardown.next("p", List.of("n1", "n2"), DELETED, DELETED.plus(TIMEOUT), TIMEOUT);
        assertThat(step).isInstanceOfSatisfying(Teardown.GiveUp.class, g -> {
            assertThat(g.nodes()).containsExactly("n1", "n2");
            assertThat(g.event().reason()).isEqualTo(EventReason.RESTORE_TIMED_OUT);
            assertThat(g.event().type()).isEqualTo(EventType.WARNING);
            assertThat(g.event().message())
                    .contains("after 300 s")
                    .contains("2 nodes")
                    .contains("n1, n2");
        });
    }
}
