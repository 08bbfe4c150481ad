package io.podnuma.agent.runtime.pin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool-change timer alone, with given times: what opens a change, what closes it, what drops it. */
class PoolPropagationTest {

    private static final CpuSet WIDE = CpuSet.parse("0-3");
    private static final CpuSet NARROW = CpuSet.parse("0-1");
    private static final long MS = 1_000_000;

    private final AgentMetrics metrics = metrics();
    private final PoolPropagation timer = new PoolPropagation(metrics);

    private static AgentMetrics metrics() {
        try {
            CpuTopology topo = new SysfsTopologyReader(Path.of("src/test/resources/sysfs/intel-2s-ht")).read();
            return new AgentMetrics(topo);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void recordedFromTheDecisionToThePassThatLeftEveryHolderOnThePool() {
        timer.decided(WIDE, NARROW, 1_000 * MS);
        assertThat(timer.awaiting()).isTrue();
        timer.applied(NARROW, List.of(NARROW, WIDE), 1_002 * MS); // one container still holds the old pool
        assertThat(count()).isZero();
        assertThat(timer.awaiting()).isTrue();

        timer.applied(NARROW, List.of(NARROW, NARROW), 1_250 * MS); // the retry
        assertThat(count()).isEqualTo(1);
        assertThat(sum()).isCloseTo(0.25, within(1e-9));
        assertThat(timer.awaiting()).isFalse();

        timer.applied(NARROW, List.of(NARROW), 2_000 * MS);
        assertThat(count()).as("a change is counted once").isEqualTo(1);
    }

    @Test
    void aDecisionThatKeepsThePoolNeitherOpensNorReplacesAChange() {
        timer.decided(NARROW, NARROW, 0);
        assertThat(timer.awaiting()).isFalse();

        timer.decided(WIDE, NARROW, 10 * MS);
        timer.decided(NARROW, NARROW, 20 * MS); // e.g. a Burstable pod admitted meanwhile
        timer.applied(NARROW, List.of(), 30 * MS); // no container on the pool: reached at once
        assertThat(sum()).as("timed from the change, not the later decision").isCloseTo(0.02, within(1e-9));
    }

    @Test
    void aChangeReplacedByANewerOneIsNotRecorded() {
        timer.decided(WIDE, NARROW, 0);
        timer.applied(NARROW, List.of(WIDE), 5 * MS);
        timer.decided(NARROW, WIDE, 100 * MS);
        timer.applied(WIDE, List.of(WIDE), 130 * MS);
        assertThat(count()).isEqualTo(1);
        assertThat(sum()).isCloseTo(0.03, within(1e-9));
    }

    @Test
    void aPoolChangedByADecisionNotToldOfDropsTheChange() {
        timer.decided(WIDE, NARROW, 0);
        timer.applied(CpuSet.parse("0"), List.of(CpuSet.parse("0")), 5 * MS);
        assertThat(timer.awaiting()).isFalse();
        assertThat(count()).isZero();
    }

    private double count() {
        return PrometheusText.sampleValue(metrics.scrape(), "podnuma_shared_pool_propagation_seconds_count");
    }

    private double sum() {
        return PrometheusText.sampleValue(metrics.scrape(), "podnuma_shared_pool_propagation_seconds_sum");
    }
}
