package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.bench.agent.AgentBench.CallResult;
import io.podnuma.bench.agent.AgentBench.Result;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.agent.JvmFlags;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent bench itself, with small counts: every start is pinned and counted by the agent, every call answers,
 * every figure is there. No figure is compared with a budget (that is what the bench prints, not what a test
 * asserts).
 */
@ExtendWith(ControlPlaneExtension.class)
class AgentBenchIT {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void aSmallRunMeasuresEveryFigure(ControlPlane cp) throws Exception {
        String reason = AgentBench.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "agent bench smoke test skipped: " + reason);
        AgentBench.Settings s = new AgentBench.Settings(
                6,
                12,
                100,
                20,
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                JvmFlags.daemonSet(),
                50_000,
                Duration.ofMillis(5),
                6,
                3);

        Result r = new AgentBench(cp, s, dir, System.out).run();
        String table = BenchTable.render(r);
        System.out.println(table);

        // 6 pods x 2 containers, round robin: the pinned pod's two containers and ten on the shared pool.
        assertThat(r.pins().exclusiveStarts()).isEqualTo(2);
        assertThat(r.pins().sharedStarts()).isEqualTo(10);
        assertThat(r.pins().timeouts()).isZero();
        assertThat(r.pins().polled().count()).isEqualTo(12);
        assertThat(r.pins().floor().count())
                .as("the minimal watcher pinned each of its starts")
                .isEqualTo(12);
        assertThat(r.pins().agentHistogram().count())
                .as("the agent's histogram counts each new container once")
                .isEqualTo(12);
        assertThat(r.pins().bareWrite().count()).isEqualTo(12);
        assertThat(r.pins().wrongAfterRestart()).isZero();
        assertThat(r.pins().driftDetected()).isZero();
        assertThat(r.pins().exclusiveCpus().size()).isEqualTo(1);
        assertThat(r.pins().exclusiveCpus().intersection(r.pins().sharedCpus()))
                .isEqualTo(io.podnuma.agent.engine.cpuset.CpuSet.empty());

        assertThat(r.footprint().containerCgroups()).isEqualTo(12);
        assertThat(List.of(
                        r.footprint().agentRssKib(),
                        r.footprint().emptyAgentRssKib(),
                        r.footprint().idleJvmRssKib()))
                .allMatch(kib -> kib > 0);
        assertThat(r.footprint().agentRssKib())
                .as("an agent holding pods, informer and servers is bigger than an empty JVM")
                .isGreaterThan(r.footprint().idleJvmRssKib());
        assertThat(r.footprint().agentMillicores()).isNotNegative();
        assertThat(r.footprint().readyCold()).isPositive();
        assertThat(r.footprint().readyRestart()).isPositive();

        assertThat(r.podResources().listedPods()).isEqualTo(6);
        for (CallResult c : List.of(
                r.podResources().list(),
                r.podResources().get(),
                r.podResources().allocatable(),
                r.podResources().emptyList())) {
            assertThat(c.errors()).as(c.method()).isZero();
            assertThat(c.latency().count()).as(c.method()).isEqualTo(100);
        }
        assertThat(r.podResources().emptyList().responseBytes()).isZero();
        assertThat(r.podResources().list().responseBytes()).isPositive();

        // 6 containers on the shared pool of their own node; 3 changes each way after an untimed one.
        AgentBench.PoolResult pool = r.pool();
        assertThat(pool.containers()).isEqualTo(6);
        assertThat(pool.timeouts())
                .as("every change reached every container within 5 s")
                .isZero();
        assertThat(pool.shrink().count()).isEqualTo(3);
        assertThat(pool.grow().count()).isEqualTo(3);
        assertThat(pool.shrinkAfterReturn().count()).isEqualTo(3);
        assertThat(pool.growAfterReturn().count()).isEqualTo(3);
        assertThat(pool.unwatched()).as("the watch saw every pod come and go").isZero();
        assertThat(pool.shrinkWatch().count()).isEqualTo(3);
        assertThat(pool.growWatch().count()).isEqualTo(3);
        assertThat(pool.agentHistogram().count())
                .as("the agent's histogram counts each change once")
                .isEqualTo(6);
        assertThat(pool.narrowPool().size()).isEqualTo(pool.widePool().size() - 1);
        assertThat(pool.sweep().count()).isPositive();

        assertThat(table)
                .contains("Shared pool shrink p99")
                .contains("Shared pool grow p99")
                .contains("Pin latency p99")
                .contains("vs the floor")
                .contains("Agent RSS, 6 pods, 12 container cgroups")
                .contains("Agent CPU, idle")
                .contains("Ready after a restart")
                .contains("PodResources List p99 (6 pods)")
                .contains("PodResources GetAllocatableResources p99");
    }
}
