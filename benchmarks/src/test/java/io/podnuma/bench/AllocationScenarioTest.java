package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AllocationScenarioTest {

    private static CpuTopology topo;

    @BeforeAll
    static void readMachine() {
        topo = BenchMachine.topology();
    }

    @Test
    void benchMachineIsTheTwoSocketEightNodeFixture() {
        assertThat(topo.numCpus()).isEqualTo(384);
        assertThat(topo.numSockets()).isEqualTo(2);
        assertThat(topo.numNumaNodes()).isEqualTo(8);
        assertThat(topo.cpusPerCore()).isEqualTo(2);
    }

    @Test
    void loadLeavesHolesAndFitsEveryOptionSet() {
        NodeLoad load = NodeLoad.standard();
        assertThat(load.ops().stream()
                        .filter(NodeLoad.Op::isAdd)
                        .mapToInt(NodeLoad.Op::cpus)
                        .sum())
                .isEqualTo(174);
        for (AllocationScenario scenario : AllocationScenario.all()) {
            AllocationScenario.Prepared prepared = scenario.prepare(topo, load);
            // 16 of the 24 pods stay; the reserved CPUs remain shared
            assertThat(prepared.loaded().assignments()).as(scenario.id()).hasSize(16);
            assertThat(prepared.policy().reserved().size()).isEqualTo(AllocationScenario.RESERVED_COUNT);
        }
    }

    @Test
    void everyScenarioAllocatesInsideItsHintAndReleaseRestoresTheLoadedNode() throws Exception {
        for (AllocationScenario scenario : AllocationScenario.all()) {
            AllocationScenario.Prepared prepared = scenario.prepare(topo, NodeLoad.standard());
            CpuSet cpus = prepared.allocate();
            assertThat(cpus.size()).as(scenario.id()).isEqualTo(scenario.request());
            assertThat(cpus.isSubsetOf(topo.cpusInNumaNodes(scenario.hint())))
                    .as(scenario.id() + " got " + cpus)
                    .isTrue();
            assertThat(cpus.intersects(prepared.loaded().exclusive())).isFalse();
            CpuState after = prepared.allocateAndRelease();
            assertThat(after).as(scenario.id()).isEqualTo(prepared.loaded());
        }
    }
}
