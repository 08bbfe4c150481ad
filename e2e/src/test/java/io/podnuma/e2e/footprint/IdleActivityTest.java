package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.prometheus.PrometheusText;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdleActivityTest {

    @Test
    void onlyTheCountersThatGrewAreListedLargestFirst() {
        PrometheusText before = PrometheusText.parse("""
                podnuma_drift_detected_total 3
                podnuma_checkpoint_writes_total 10
                podnuma_reconcile_seconds_count 5
                podnuma_reconcile_seconds_sum 0.5
                podnuma_pods 7
                """);
        PrometheusText after = PrometheusText.parse("""
                podnuma_drift_detected_total 3
                podnuma_checkpoint_writes_total 11
                podnuma_reconcile_seconds_count 8
                podnuma_reconcile_seconds_sum 0.9
                podnuma_pods 9
                podnuma_nri_requests_total{method="CreateContainer"} 2
                """);
        assertThat(IdleActivity.counters(before, after))
                .containsExactly(
                        "podnuma_reconcile_seconds_count +3",
                        "podnuma_nri_requests_total{method=\"CreateContainer\"} +2",
                        "podnuma_checkpoint_writes_total +1");
    }

    @Test
    void threadsArePerNameInMillicoresOfTheWindowBusiestFirst() {
        Map<Long, ProcFs.ThreadTicks> before = Map.of(
                1L, new ProcFs.ThreadTicks("podnuma-agent-l", 100),
                2L, new ProcFs.ThreadTicks("ForkJoinPool-1-", 10),
                3L, new ProcFs.ThreadTicks("ForkJoinPool-1-", 10),
                4L, new ProcFs.ThreadTicks("idle", 5));
        Map<Long, ProcFs.ThreadTicks> after = Map.of(
                1L, new ProcFs.ThreadTicks("podnuma-agent-l", 103),
                2L, new ProcFs.ThreadTicks("ForkJoinPool-1-", 11),
                3L, new ProcFs.ThreadTicks("ForkJoinPool-1-", 11),
                4L, new ProcFs.ThreadTicks("idle", 5),
                5L, new ProcFs.ThreadTicks("new", 1));
        // 10 s window: 3 ticks (30 ms) = 3 m, 2 ticks = 2 m, 1 tick = 1 m
        assertThat(IdleActivity.threads(before, after, 10e9, 2))
                .containsExactly("podnuma-agent-l 3.00 m", "ForkJoinPool-1- 2.00 m");
    }

    @Test
    void aThreadStatLineNamedWithSpacesAndParenthesesIsRead() throws Exception {
        String stat = "42 (C1 Compiler (x)) S 1 1 1 0 -1 4194368 10 0 0 0 7 5 0 0 20 0 1 0 100 0 0";
        assertThat(ProcFs.threadTicks(stat)).isEqualTo(new ProcFs.ThreadTicks("C1 Compiler (x)", 12));
    }
}
