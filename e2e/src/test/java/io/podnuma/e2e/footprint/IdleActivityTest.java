package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        Map<Long, ProcFs.ThreadCpu> before = Map.of(
                1L, new ProcFs.ThreadCpu("podnuma-agent-l", 100_000_000),
                2L, new ProcFs.ThreadCpu("ForkJoinPool-1-", 10_000_000),
                3L, new ProcFs.ThreadCpu("ForkJoinPool-1-", 10_000_000),
                4L, new ProcFs.ThreadCpu("idle", 5_000_000));
        Map<Long, ProcFs.ThreadCpu> after = Map.of(
                1L, new ProcFs.ThreadCpu("podnuma-agent-l", 130_000_000),
                2L, new ProcFs.ThreadCpu("ForkJoinPool-1-", 10_500_000),
                3L, new ProcFs.ThreadCpu("ForkJoinPool-1-", 11_000_000),
                4L, new ProcFs.ThreadCpu("idle", 5_000_000),
                5L, new ProcFs.ThreadCpu("new", 100_000));
        // 10 s window: 30 ms = 3 m; the pool's two threads 1.5 ms = 0.15 m
        assertThat(IdleActivity.threads(before, after, 10e9, 2))
                .containsExactly("podnuma-agent-l 3.00 m", "ForkJoinPool-1- 0.15 m");
    }

    @Test
    void threadsSinceStartArePerNameInMillisecondsBusiestFirst() {
        Map<Long, ProcFs.ThreadCpu> now = Map.of(
                1L, new ProcFs.ThreadCpu("main", 412_400_000),
                2L, new ProcFs.ThreadCpu("C1 CompilerThre", 300_000_000),
                3L, new ProcFs.ThreadCpu("C1 CompilerThre", 250_600_000),
                4L, new ProcFs.ThreadCpu("idle", 0));
        assertThat(IdleActivity.threadsSinceStart(now, 5)).containsExactly("C1 CompilerThre 551 ms", "main 412 ms");
    }

    @Test
    void theWaitForACpuIsSummedOverTheThreadsAndTheMainThreadsShareNamed() {
        Map<Long, ProcFs.ThreadCpu> threads = Map.of(
                1L, new ProcFs.ThreadCpu("java", 500_000_000, 120_400_000),
                2L, new ProcFs.ThreadCpu("C1 CompilerThre", 400_000_000, 80_000_000),
                3L, new ProcFs.ThreadCpu("VM Thread", 50_000_000, 0));
        assertThat(IdleActivity.runQueueWait(threads)).isEqualTo("200 ms in all, the main thread 120 ms");
    }

    @Test
    void aThreadNamedWithSpacesAndParenthesesAndItsSchedulerTimeAreRead() throws Exception {
        String stat = "42 (C1 Compiler (x)) S 1 1 1 0 -1 4194368 10 0 0 0 7 5 0 0 20 0 1 0 100 0 0";
        assertThat(ProcFs.threadCpu(stat, "1234567 89 10\n"))
                .isEqualTo(new ProcFs.ThreadCpu("C1 Compiler (x)", 1_234_567, 89));
        assertThatThrownBy(() -> ProcFs.threadCpu(stat, "1234567\n"))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("schedstat");
    }
}
