package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FootprintTableTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void everyFigureStandsBesideTheBaselineWithTheRatioAndTheBudget() {
        Footprint agent = new Footprint(
                reading(120 * MIB, 20 * MIB, 90 * MIB, 30 * MIB),
                new ProcFs.Resident(100 * 1024, 80 * 1024, 20 * 1024),
                4.5,
                Optional.of(Duration.ofMillis(1870)),
                Optional.of(Duration.ofSeconds(2)));
        Footprint idle = new Footprint(
                reading(40 * MIB, 10 * MIB, 25 * MIB, 15 * MIB),
                new ProcFs.Resident(32 * 1024, 8 * 1024, 24 * 1024),
                0.5,
                Optional.empty(),
                Optional.empty());

        List<String> lines = FootprintTable.render(FootprintTable.rows(agent, idle, Duration.ofSeconds(60)));

        assertThat(lines.get(0)).isEqualTo(FootprintTable.HEADER);
        assertThat(lines)
                .contains(
                        "| pod cgroup memory.usage_in_bytes | 120.0 MiB | 40.0 MiB | 3.00 |  |",
                        "| pod working set (usage − total_inactive_file: kubectl top, eviction) | 100.0 MiB | 30.0 MiB"
                                + " | 3.33 | < 96 MiB |",
                        "| pod total_rss (anonymous) | 90.0 MiB | 25.0 MiB | 3.60 |  |",
                        "| pod total_cache (page cache) | 30.0 MiB | 15.0 MiB | 2.00 |  |",
                        "| pod memory.kmem.usage_in_bytes (kernel: stacks, slab) | 2.0 MiB | 0.7 MiB | 3.00 |  |",
                        "| java VmRSS | 100.0 MiB | 32.0 MiB | 3.13 |  |",
                        "| java RssAnon (in the pod's cgroup) | 80.0 MiB | 8.0 MiB | 10.00 |  |",
                        "| java RssFile (mapped files: libjvm, modules, jar; charged to who read them first) | 20.0 MiB"
                                + " | 24.0 MiB | 0.83 |  |",
                        "| idle CPU over 60 s (pod cpuacct.usage) | 4.50 m | 0.50 m | 9.00 | < 5 m |",
                        "| ready: JVM start → first /readyz 200 | 1.87 s | — | — | < 2 s |",
                        "| ready as the kubelet reports it (startedAt → Ready, whole seconds) | 2.00 s | — | — |  |");
        assertThat(lines).hasSize(2 + 11);
    }

    @Test
    void aZeroBaselineHasNoRatio() {
        FootprintTable.Row row =
                new FootprintTable.Row("idle CPU", FootprintTable.Unit.MILLICORES, 1.0, Optional.of(0.0), "< 5 m");
        assertThat(row.render()).isEqualTo("| idle CPU | 1.00 m | 0.00 m | — | < 5 m |");
    }

    private static PodCgroup.MemoryReading reading(long usage, long inactiveFile, long rss, long cache) {
        return new PodCgroup.MemoryReading(
                usage,
                MemoryStat.parse(
                        "total_rss " + rss + "\ntotal_cache " + cache + "\ntotal_inactive_file " + inactiveFile + "\n"),
                Optional.of(usage / 60));
    }

    @Test
    void theTableTakesTheRestartWithTheMedianReadyTime() {
        List<AgentPodFootprintE2E.ReadyTiming> restarts =
                List.of(restart(4_400), restart(2_900), restart(3_500), restart(6_800));
        // four restarts: the upper of the two middle ones
        assertThat(AgentPodFootprintE2E.median(restarts).ready()).isEqualTo(Duration.ofMillis(4_400));
        assertThat(AgentPodFootprintE2E.median(restarts.subList(0, 3)).ready()).isEqualTo(Duration.ofMillis(3_500));
        assertThat(AgentPodFootprintE2E.median(restarts.subList(1, 2)).ready()).isEqualTo(Duration.ofMillis(2_900));
    }

    private static AgentPodFootprintE2E.ReadyTiming restart(long readyMillis) {
        return new AgentPodFootprintE2E.ReadyTiming(
                new io.fabric8.kubernetes.api.model.Pod(),
                Duration.ofMillis(readyMillis),
                Duration.ofSeconds(readyMillis / 1000 + 1),
                List.of());
    }
}
