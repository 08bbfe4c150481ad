package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.bench.agent.AgentBench.CallResult;
import io.podnuma.bench.agent.AgentBench.Footprint;
import io.podnuma.bench.agent.AgentBench.PinResult;
import io.podnuma.bench.agent.AgentBench.PodResourcesResult;
import io.podnuma.bench.agent.AgentBench.PoolResult;
import io.podnuma.bench.agent.AgentBench.Result;
import io.podnuma.testkit.prometheus.PromHistogram;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BenchTableTest {

    @Test
    void everyFigureWithItsBaselineAndRatio() {
        String t = BenchTable.render(result());
        String flat = t.replaceAll(" +", " ");
        assertThat(flat)
                .contains("| Pin latency p50: mkdir → cpuset.cpus holds the set (500 starts, polled) | 400.0 µs |"
                        + " 5.0 µs bare write p50 | 80.0 | |")
                .contains("| Pin latency p99: mkdir → cpuset.cpus holds the set (500 starts, polled) | 2.00 ms |"
                        + " 20.0 µs bare write p99 | 100 | < 10 ms |")
                .contains("| Pin latency p99 vs the floor: a minimal watcher, same load (500 starts) | 2.00 ms |"
                        + " 1.00 ms floor p99 | 2.00 | |")
                .contains("seen → written (500 pins) | ≤ 250.0 µs / ≤ 1.00 ms |")
                .contains(
                        "| Agent RSS, 110 pods, 500 container cgroups | 80.0 MiB | 40.0 MiB idle JVM | 2.00 | < 96 MiB |")
                .contains(
                        "| its anonymous part (RssAnon: what the pod's memory cgroup is charged) | 60.0 MiB | 20.0 MiB"
                                + " idle JVM | 3.00 | |")
                .contains("| Agent CPU, idle 60 s, 110 pods | 3.00 m | 0 m idle JVM | – | < 5 m |")
                .contains(
                        "| Ready (/readyz 200), 110 pods, first start | 1.50 s | 1.20 s agent, no pods | 1.25 | < 2 s |")
                .contains("| PodResources List p50 (110 pods, 9000 B) | 150.0 µs | 30.0 µs empty List p50 | 5.00 | |")
                .contains(
                        "| PodResources List p99 (110 pods) | 300.0 µs | 60.0 µs empty List p99 | 5.00 | p99 < 1 ms |")
                .contains("| PodResources Get p99 | 90.0 µs | 60.0 µs empty List p99 | 1.50 | |")
                .contains("errors: List 0, Get 1")
                .contains(
                        "9000 warm-up rounds (continued until the client JVM's JIT was quiet, at most three times the timed"
                                + " rounds more) + ")
                .contains("5 starts in the pinned pod (CPUs 1), 495 on the shared pool (CPUs 0)")
                .contains("| Shared pool shrink p50: Guaranteed pod create sent → last of 100 containers holds the new"
                        + " pool (polled) | 12.00 ms | 3.00 ms watch event p50 | 4.00 | |")
                .contains("| Shared pool shrink p99: Guaranteed pod create sent → last of 100 containers holds the new"
                        + " pool (polled) | 40.00 ms | 8.00 ms watch event p99 | 5.00 | |")
                .contains("| Shared pool shrink p99: Guaranteed pod create returned → last of 100 containers holds the"
                        + " new pool (polled) | 33.00 ms | | | < 100 ms |")
                .contains("| Shared pool grow p99: its delete sent → last of 100 containers holds the new pool"
                        + " (polled) | 30.00 ms | 5.00 ms watch event p99 | 6.00 | |")
                .contains("| Shared pool grow p99: its delete returned → last of 100 containers holds the new pool"
                        + " (polled) | 22.00 ms | | | < 100 ms |")
                .contains("from the call returning, p50 shrink 6.00 ms, grow 5.00 ms")
                .contains(
                        "agent's histogram: decided → every container holds it (100 changes) | ≤ 25.00 ms / ≤ 25.00 ms |")
                .contains("(pool 0-1 → 0)")
                .contains("a sweep over all 100 files takes 700.0 µs p50, 1.00 ms max")
                .contains("3 of 100 came before the call's response");
        String[] lines = t.split("\n");
        assertThat(lines[0]).startsWith("| Measure");
        int width = lines[0].length();
        for (int i = 0; i < 27; i++) {
            assertThat(lines[i].length())
                    .as("line %d is aligned: %s", i, lines[i])
                    .isEqualTo(width);
        }
    }

    @Test
    void unitsAndRatios() {
        assertThat(BenchTable.nanos(999)).isEqualTo("999 ns");
        assertThat(BenchTable.nanos(1_500)).isEqualTo("1.5 µs");
        assertThat(BenchTable.nanos(2_345_678)).isEqualTo("2.35 ms");
        assertThat(BenchTable.nanos(1_500_000_000)).isEqualTo("1.50 s");
        assertThat(BenchTable.seconds(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(BenchTable.seconds(Double.NaN)).isEqualTo("n/a");
        assertThat(BenchTable.ratio(5, 0)).isEqualTo("–");
        assertThat(BenchTable.ratio(1, 3)).isEqualTo("0.33");
        assertThat(BenchTable.ratio(250, 2)).isEqualTo("125");
    }

    static Result result() {
        PromHistogram h = PromHistogram.parse(
                "p_bucket{le=\"0.00025\"} 300\np_bucket{le=\"0.001\"} 499\np_bucket{le=\"0.01\"} 500\n", "p");
        PinResult pins = new PinResult(
                new LatencySummary(500, 400_000, 2_000_000, 9_000_000, 500_000),
                new LatencySummary(500, 5_000, 20_000, 90_000, 6_000),
                new LatencySummary(500, 100_000, 1_000_000, 3_000_000, 200_000),
                h,
                5,
                495,
                0,
                0,
                0,
                CpuSet.of(1),
                CpuSet.of(0));
        Footprint f = new Footprint(
                80 * 1024,
                70 * 1024,
                40 * 1024,
                60 * 1024,
                20 * 1024,
                3.0,
                2.0,
                0.0,
                Duration.ofSeconds(60),
                Duration.ofMillis(1500),
                Duration.ofMillis(1200),
                Duration.ofMillis(1300),
                500);
        CallResult list =
                new CallResult("List", new LatencySummary(10_000, 150_000, 300_000, 900_000, 160_000), 0, 9000);
        CallResult get = new CallResult("Get", new LatencySummary(10_000, 50_000, 90_000, 500_000, 55_000), 1, 80);
        CallResult alloc = new CallResult(
                "GetAllocatableResources", new LatencySummary(10_000, 40_000, 70_000, 400_000, 45_000), 0, 10);
        CallResult empty =
                new CallResult("List (no pods)", new LatencySummary(10_000, 30_000, 60_000, 300_000, 35_000), 0, 0);
        AgentBench.Settings s = AgentBench.Settings.full();
        return new Result(
                s,
                pins,
                f,
                new PodResourcesResult(list, get, alloc, empty, 110, 9_000),
                new PoolResult(
                        100,
                        50,
                        new LatencySummary(50, 12_000_000, 40_000_000, 45_000_000, 14_000_000),
                        new LatencySummary(50, 6_000_000, 33_000_000, 39_000_000, 8_000_000),
                        new LatencySummary(50, 3_000_000, 8_000_000, 9_000_000, 3_500_000),
                        new LatencySummary(50, 10_000_000, 30_000_000, 31_000_000, 11_000_000),
                        new LatencySummary(50, 5_000_000, 22_000_000, 24_000_000, 6_000_000),
                        new LatencySummary(50, 2_000_000, 5_000_000, 6_000_000, 2_500_000),
                        new LatencySummary(50, 6_000_000, 9_000_000, 9_500_000, 6_500_000),
                        new LatencySummary(50, 5_000_000, 8_000_000, 8_500_000, 5_500_000),
                        new LatencySummary(50, 700_000, 900_000, 1_000_000, 750_000),
                        PromHistogram.parse(
                                "q_bucket{le=\"0.005\"} 40\nq_bucket{le=\"0.025\"} 99\nq_bucket{le=\"0.05\"} 100\n",
                                "q"),
                        0,
                        0,
                        3,
                        CpuSet.parse("0-1"),
                        CpuSet.of(0)),
                "load average 1.0, 1.0, 1.0 on 2 CPUs",
                "load average 2.0, 1.5, 1.0 on 2 CPUs");
    }
}
