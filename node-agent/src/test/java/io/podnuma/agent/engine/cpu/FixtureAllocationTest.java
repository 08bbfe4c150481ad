package io.podnuma.agent.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Allocation on the discovered fixture machines. */
class FixtureAllocationTest {

    private static final CpuSet NONE = CpuSet.empty();

    @Test
    void epycUncoreOptionKeepsSmallRequestsInsideOneL3Group() throws CpuAllocationException {
        CpuTopology t = Fixtures.topology(FakeMachine.EPYC_2S_NPS4);
        StaticPolicy p = StaticPolicy.create(
                t,
                StaticPolicyOptions.parse(Map.of("prefer-align-cpus-by-uncorecache", "true")),
                ReservedCpus.count(2),
                "none");
        CpuState s = p.initialState();
        // Reserved CPUs 0 and 128 (core 0) sit in L3 group 0; group 1 is whole.
        StaticPolicy.Allocation a = p.allocate(s, "a", 16, NONE, NONE);
        assertThat(a.alignedToUncoreCache()).isTrue();
        assertThat(a.cpus()).isEqualTo(t.cpusInUncoreCache(1));
        StaticPolicy.Allocation b = p.allocate(a.state(), "b", 6, NONE, NONE);
        assertThat(b.alignedToUncoreCache()).isTrue();
        assertThat(t.uncoreCachesOf(b.cpus())).hasToString("0");
    }

    @Test
    void withoutTheUncoreOptionAnEpycRequestCanStraddleL3Groups() throws CpuAllocationException {
        CpuTopology t = Fixtures.topology(FakeMachine.EPYC_2S_NPS4);
        StaticPolicy p = StaticPolicy.create(t, StaticPolicyOptions.NONE, ReservedCpus.count(2), "none");
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "a", 16, NONE, NONE);
        // Packed fills the partly used core order: cores 1..8 of node 0 span L3 groups 0 and 1.
        assertThat(a.cpus()).hasToString("1-8,129-136");
        assertThat(a.alignedToUncoreCache()).isFalse();
    }

    @Test
    void subNumaClusteringAlignsToTheHintedNode() throws CpuAllocationException {
        CpuTopology t = Fixtures.topology(FakeMachine.INTEL_2S_SNC2);
        StaticPolicy p = StaticPolicy.create(t, StaticPolicyOptions.NONE, ReservedCpus.count(2), "none");
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "a", 10, CpuSet.of(3), NONE);
        assertThat(a.cpus().isSubsetOf(t.cpusInNumaNode(3))).isTrue();
        assertThat(p.hints(p.initialState(), 30, NONE).stream().filter(CpuHint::preferred))
                .extracting(h -> h.numaNodes().toString())
                .containsExactly("0-1", "0,2", "0,3", "1-2", "1,3", "2-3");
    }

    @Test
    void offlineThreadsNeverLeadToACpuHandedOutTwice() throws CpuAllocationException {
        CpuTopology t = Fixtures.topology(FakeMachine.OFFLINE);
        // 27 online CPUs on 14 cores: the kubelet's average says 1 CPU per core.
        assertThat(t.cpusPerCore()).isEqualTo(1);
        StaticPolicy p = StaticPolicy.create(t, StaticPolicyOptions.NONE, ReservedCpus.explicit(CpuSet.of(0)), "none");
        CpuState s = p.initialState();
        CpuSet handedOut = CpuSet.empty();
        for (int i = 0; i < 9; i++) {
            StaticPolicy.Allocation a = p.allocate(s, "pod" + i, 1 + i % 3, NONE, NONE);
            assertThat(a.cpus().intersects(handedOut))
                    .as("allocation %d: %s", i, a.cpus())
                    .isFalse();
            handedOut = handedOut.union(a.cpus());
            s = a.state();
        }
        assertThat(handedOut.intersects(t.offlineCpus())).isFalse();
        assertThat(handedOut.union(p.shared(s))).isEqualTo(t.onlineCpus());
    }

    @Test
    void benchmarkMachineDistributesAcrossNodesOfOneSocketWithAlignBySocket() throws CpuAllocationException {
        CpuTopology t = Fixtures.topology(FakeMachine.BENCH_384);
        StaticPolicy p = StaticPolicy.create(
                t,
                StaticPolicyOptions.parse(Map.of("distribute-cpus-across-numa", "true", "align-by-socket", "true")),
                ReservedCpus.count(4),
                "best-effort");
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "a", 96, NONE, NONE);
        assertThat(a.cpus().size()).isEqualTo(96);
        assertThat(t.numaNodesOf(a.cpus()).size()).isEqualTo(2);
        assertThat(t.socketsOf(a.cpus()).size()).isEqualTo(1);
    }
}
