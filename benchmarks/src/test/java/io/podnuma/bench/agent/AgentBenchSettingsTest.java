package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.bench.agent.AgentBench.Settings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentBenchSettingsTest {

    @Test
    void theIssuesCountsAndOptions() {
        Settings full = Settings.full();
        assertThat(full.pods()).isEqualTo(110);
        assertThat(full.starts()).isEqualTo(500);
        assertThat(full.calls()).isEqualTo(10_000);
        assertThat(full.idle()).isEqualTo(Duration.ofSeconds(60));
        assertThat(full.containersPerPod()).as("500 starts over 110 pods").isEqualTo(5);
        assertThat(full.poolContainers()).isEqualTo(100);
        assertThat(full.poolChanges()).isEqualTo(200);
        assertThat(Settings.quick().poolContainers()).isLessThan(100);

        Settings s = full.withOption("--starts", "120")
                .withOption("--pods", "7")
                .withOption("--idle-seconds", "3")
                .withOption("--pool-containers", "12")
                .withOption("--pool-changes", "4")
                .withOption("--jvm-flags", " -Xmx48m  -XX:+UseSerialGC ");
        assertThat(s.starts()).isEqualTo(120);
        assertThat(s.pods()).isEqualTo(7);
        assertThat(s.containersPerPod()).isEqualTo(18); // 7 x 18 = 126 >= 120
        assertThat(s.idle()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.jvmFlags()).containsExactly("-Xmx48m", "-XX:+UseSerialGC");
        assertThat(s.calls()).isEqualTo(full.calls());
        assertThat(s.poolContainers()).isEqualTo(12);
        assertThat(s.poolChanges()).isEqualTo(4);
    }

    @Test
    void badOptionsNameTheOptionAndWhatIsAllowed() {
        Settings full = Settings.full();
        assertThatThrownBy(() -> full.withOption("--starts", "many"))
                .hasMessage("--starts \"many\": allowed a whole number");
        assertThatThrownBy(() -> full.withOption("--start", "5"))
                .hasMessageStartingWith("unknown option --start: allowed --quick, --pods, --starts");
        assertThatThrownBy(() -> full.withOption("--pods", "1")).hasMessageContaining("allowed pods >= 2");
        assertThatThrownBy(
                        () -> new Settings(2, 0, 1, 0, Duration.ZERO, Duration.ZERO, List.of(), 1, Duration.ZERO, 1, 1))
                .hasMessageContaining("starts >= 1");
        assertThatThrownBy(() -> full.withOption("--pool-changes", "0"))
                .hasMessageContaining("pool changes 0: allowed at least one of each");
    }

    @Test
    void slowCallsAreCountedPerSliceInOrder() {
        long ms = 1_000_000L;
        long[] nanos = {ms / 2, 2 * ms, 3 * ms, ms / 2, ms, ms / 4, 5 * ms};

        assertThat(AgentBench.slowCalls(nanos, ms, 3))
                .isEqualTo("3 of 7 calls over 1.0 ms; per 3 calls in order: 2 0 1");
    }

    @Test
    void slowSlicesNameTheirWallClockStart() {
        long ms = 1_000_000L;
        long[] nanos = {ms / 2, ms / 2, 2 * ms, 3 * ms};
        long[] started = {0, ms, 2 * ms, 5 * ms};

        assertThat(AgentBench.slowSlices(nanos, started, ms, 2, 1_000L, 0))
                .isEqualTo("slices with 5% or more over 1.0 ms: #1 from 00:00:01.002 UTC for 6 ms: 2");
        assertThat(AgentBench.slowSlices(new long[] {ms / 2}, new long[] {0}, ms, 2, 0, 0))
                .isEqualTo("no slice with 5% or more over 1.0 ms");
    }
}
