package io.podnuma.agent.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuHintAdapterTest {

    @Test
    void cpuHintsBecomeTopologyHintsInTheSameOrder() {
        StaticPolicy p = StaticPolicy.create(
                TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2), "none");
        List<TopologyHint> hints = CpuHintAdapter.toTopologyHints(p.hints(p.initialState(), 25, CpuSet.empty()));
        assertThat(hints.getFirst()).isEqualTo(TopologyHint.preferred(NumaMask.of(0, 1)));
        assertThat(hints.getLast()).isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1, 2, 3)));
        assertThat(hints).hasSize(11);
    }

    @Test
    void mergedHintBecomesTheAllocationAffinity() throws CpuAllocationException {
        assertThat(CpuHintAdapter.affinity(TopologyHint.dontCare()).isEmpty()).isTrue();
        assertThat(CpuHintAdapter.affinity(null).isEmpty()).isTrue();
        CpuSet affinity = CpuHintAdapter.affinity(TopologyHint.preferred(NumaMask.of(2)));
        assertThat(affinity).hasToString("2");
        StaticPolicy p = StaticPolicy.create(
                TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2), "none");
        assertThat(p.allocate(p.initialState(), "a", 4, affinity, CpuSet.empty())
                        .cpus())
                .hasToString("20-21,60-61");
    }

    @Test
    void nodesBeyondTheMaskLimitAreRefused() {
        assertThatThrownBy(() -> CpuHintAdapter.toMask(CpuSet.of(64)))
                .hasMessageContaining("NUMA node 64 is beyond the topology manager's limit of 64 nodes");
    }
}
