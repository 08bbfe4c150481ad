package io.podnuma.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SoakTallyTest {

    @Test
    void quantilesByNearestRank() {
        List<Duration> ds =
                IntStream.rangeClosed(1, 100).mapToObj(Duration::ofMillis).toList();
        assertThat(SoakTally.quantile(ds, 0.5)).isEqualTo(Duration.ofMillis(50));
        assertThat(SoakTally.quantile(ds, 0.99)).isEqualTo(Duration.ofMillis(99));
        assertThat(SoakTally.quantile(List.of(Duration.ofMillis(7)), 0.99)).isEqualTo(Duration.ofMillis(7));
        assertThat(SoakTally.quantile(List.of(), 0.5)).isNull();
    }

    @Test
    void rendersOneLinePerKindInjected() {
        SoakTally t = new SoakTally();
        t.injected(FaultKind.AGENT_KILL9);
        t.injected(FaultKind.AGENT_KILL9);
        t.converged(FaultKind.AGENT_KILL9, Duration.ofMillis(300));
        t.violated(FaultKind.AGENT_KILL9, new Violation(ViolationKind.ALLOCATION_LOST, "pod a", "x"));
        t.placementChanged("node_reboot: rebuilt");
        String table = t.render();
        assertThat(table).contains("agent_kill9").doesNotContain("etcd_restart").contains("node_reboot: rebuilt");
        assertThat(t.injections()).isEqualTo(2);
        assertThat(t.violations()).hasSize(1);
    }

    @Test
    void takeoverTimesGetTheirOwnLinesOnlyWhenMeasured() {
        SoakTally t = new SoakTally();
        t.injected(FaultKind.OPERATOR_KILL9);
        assertThat(t.render()).doesNotContain("takeover");
        t.tookOver(FaultKind.OPERATOR_KILL9, Duration.ofMillis(4100));
        t.tookOver(FaultKind.OPERATOR_KILL9, Duration.ofMillis(4300));
        assertThat(t.render())
                .contains(String.format("%-30s %10d %12s %12s", "operator_kill9", 2, "4100 ms", "4300 ms"));
    }

    @Test
    void theDrawIsSeededAndWeighted() {
        List<FaultKind> kinds = List.of(FaultKind.AGENT_KILL9, FaultKind.ETCD_RESTART);
        FaultDraw a = new FaultDraw(kinds, new Random(42));
        FaultDraw b = new FaultDraw(kinds, new Random(42));
        int kills = 0;
        for (int i = 0; i < 1100; i++) {
            FaultKind k = a.next();
            assertThat(b.next()).isEqualTo(k);
            kills += k == FaultKind.AGENT_KILL9 ? 1 : 0;
        }
        // weights 10:1
        assertThat(kills).isBetween(900, 1080);
    }

    @Test
    void theDrawTakesEveryKindOnceBeforeWeightingAndAMissedKindAgain() {
        List<FaultKind> kinds = List.of(FaultKind.AGENT_KILL9, FaultKind.ETCD_RESTART, FaultKind.NODE_REBOOT);
        FaultDraw d = new FaultDraw(kinds, new Random(7));
        assertThat(d.covering()).isTrue();
        List<FaultKind> first = List.of(d.next(), d.next());
        d.again(first.getFirst());
        assertThat(d.next()).isEqualTo(first.getFirst());
        FaultKind third = d.next();
        assertThat(d.covering()).isFalse();
        assertThat(List.of(first.get(0), first.get(1), third)).containsExactlyInAnyOrderElementsOf(kinds);
    }

    @Test
    void aimedInjectionsCountAsReachedOnlyWhenTheyWere() {
        SoakTally t = new SoakTally();
        t.injected(FaultKind.AGENT_KILL9_DURING_SYNC);
        t.aimed(FaultKind.AGENT_KILL9_DURING_SYNC, false);
        t.injected(FaultKind.AGENT_KILL9_AT_START);
        t.aimed(FaultKind.AGENT_KILL9_AT_START, true);
        t.injected(FaultKind.ETCD_RESTART);
        assertThat(t.reached(FaultKind.AGENT_KILL9_DURING_SYNC)).isZero();
        assertThat(t.neverReached()).containsExactly(FaultKind.AGENT_KILL9_DURING_SYNC);
        assertThat(t.neverInjected(List.of(FaultKind.ETCD_RESTART, FaultKind.NODE_REBOOT)))
                .containsExactly(FaultKind.NODE_REBOOT);
        assertThat(t.render()).contains("0/1").contains("1/1");
    }
}
