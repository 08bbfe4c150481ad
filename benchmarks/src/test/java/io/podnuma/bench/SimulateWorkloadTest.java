package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import org.junit.jupiter.api.Test;

class SimulateWorkloadTest {

    @Test
    void admitsAll110PodsWithTheirExclusiveCpus() {
        CpuTopology topo = BenchMachine.topology();
        NodeState state = new SimulateWorkload(topo).run();

        assertThat(state.pods()).hasSize(SimulateWorkload.PODS);
        int guaranteedCpus = SimulateWorkload.specs().stream()
                .filter(SimulateWorkload.PodSpec::guaranteed)
                .mapToInt(SimulateWorkload.PodSpec::cpus)
                .sum();
        CpuSet.Builder exclusive = CpuSet.builder();
        state.cpuOwners().values().forEach(exclusive::addAll);
        assertThat(exclusive.build().size()).isEqualTo(guaranteedCpus);
        assertThat(state.sharedPool().size()).isEqualTo(topo.numCpus() - guaranteedCpus);
        assertThat(state.sharedPool().intersects(exclusive.build())).isFalse();
    }

    @Test
    void everyTenthPodIsBurstable() {
        assertThat(SimulateWorkload.specs()).hasSize(110);
        assertThat(SimulateWorkload.specs().stream().filter(s -> !s.guaranteed()))
                .hasSize(11)
                .allMatch(s -> s.name().endsWith("9"));
    }
}
