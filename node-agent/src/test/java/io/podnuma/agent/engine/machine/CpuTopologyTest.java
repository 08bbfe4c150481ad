package io.podnuma.agent.engine.machine;

import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuTopologyTest {

    private static CpuInfo cpu(int id, int core, CpuSet siblings) {
        return new CpuInfo(id, 0, 0, 0, core, core, 0, siblings);
    }

    private static NumaNode node(int id, String cpus, int... distances) {
        List<Integer> d = java.util.Arrays.stream(distances).boxed().toList();
        return new NumaNode(id, CpuSet.parse(cpus), 1L << 30, Map.of(2048L, 4L), d);
    }

    @Test
    void countsAndGroupsFollowTheKubeletDefinitions() {
        CpuTopology t = DUAL_SOCKET_MULTI_NUMA_HT;
        assertThat(t.numCpus()).isEqualTo(80);
        assertThat(t.numSockets()).isEqualTo(2);
        assertThat(t.numNumaNodes()).isEqualTo(4);
        assertThat(t.numCores()).isEqualTo(40);
        assertThat(t.cpusPerCore()).isEqualTo(2);
        assertThat(t.cpusPerSocket()).isEqualTo(40);
        assertThat(t.socketsInNumaNodes(CpuSet.of(1, 2))).hasToString("0-1");
        assertThat(t.numaNodesInSockets(CpuSet.of(1))).hasToString("2-3");
        assertThat(t.numaNodesInOneSocket(CpuSet.of(2, 3))).isTrue();
        assertThat(t.numaNodesInOneSocket(CpuSet.of(1, 2))).isFalse();
        assertThat(t.cpusInCores(CpuSet.of(3, 4))).hasToString("3-4,43-44");
        assertThat(t.coresOf(CpuSet.of(43, 3, 50))).hasToString("3,10");
        assertThat(t.numaNodesOf(CpuSet.of(0, 79))).hasToString("0,3");
        assertThat(t.cpusInNumaNodes(CpuSet.of(0, 3))).hasToString("0-9,30-49,70-79");
        assertThat(t.dieIds(0)).hasToString("0");
        assertThat(t.alignedToOneUncoreCache(CpuSet.of(0, 1))).isTrue();
        assertThat(t.alignedToOneUncoreCache(CpuSet.empty())).isFalse();
        assertThat(t.cpusInSocket(7).isEmpty()).isTrue();
    }

    @Test
    void distancesFollowNodeOrderAndUnknownIsMinusOne() {
        CpuTopology t = new CpuTopology(
                List.of(cpu(0, 0, CpuSet.of(0))), CpuSet.empty(), List.of(node(0, "0", 10, 20), node(1, "", 20, 10)));
        assertThat(t.distance(0, 1)).isEqualTo(20);
        assertThat(t.distance(1, 1)).isEqualTo(10);
        assertThat(t.distance(0, 5)).isEqualTo(-1);
        assertThat(t.distance(9, 0)).isEqualTo(-1);
        assertThat(t.memoryOnlyNumaNodeIds()).hasToString("1");
        assertThat(t.numaNode(1).orElseThrow().hugepageBytes()).isEqualTo(4 * 2 * 1024 * 1024L);
    }

    @Test
    void inconsistentMachinesAreRefusedWithTheReason() {
        CpuInfo c0 = cpu(0, 0, CpuSet.of(0));
        assertThatThrownBy(() -> new CpuTopology(List.of(), CpuSet.empty(), List.of()))
                .hasMessageContaining("at least one online CPU");
        assertThatThrownBy(() -> new CpuTopology(List.of(c0, c0), CpuSet.empty(), List.of()))
                .hasMessageContaining("CPU 0 is listed twice");
        assertThatThrownBy(() -> new CpuTopology(List.of(c0), CpuSet.of(0), List.of()))
                .hasMessageContaining("CPUs 0 are listed both online and offline");
        assertThatThrownBy(() -> new CpuTopology(List.of(c0), CpuSet.empty(), List.of(node(0, "0-1"))))
                .hasMessageContaining("NUMA node 0 lists CPUs 0-1 but the CPUs placed on it are 0");
        assertThatThrownBy(() -> new CpuTopology(List.of(c0), CpuSet.empty(), List.of(node(0, "0", 10, 21))))
                .hasMessageContaining("has 2 distances but the machine has 1 nodes");
        assertThatThrownBy(() -> new CpuTopology(List.of(c0), CpuSet.empty(), List.of(node(1, ""))))
                .hasMessageContaining("CPUs 0 sit on NUMA node 0 which is not among the machine's nodes");
    }

    @Test
    void cpuInfoChecksItsSiblings() {
        assertThatThrownBy(() -> cpu(1, 0, CpuSet.of(0, 2)))
                .hasMessageContaining("CPU 1 is missing from its own sibling list 0,2");
        assertThatThrownBy(() -> new CpuInfo(4, 0, 0, 0, 4, 0, 0, CpuSet.of(0, 4)))
                .hasMessageContaining("core id of CPU 4 must be the lowest sibling 0, was 4");
        assertThatThrownBy(() -> new NumaNode(0, CpuSet.empty(), -1, Map.of(), List.of()))
                .hasMessageContaining("memory of NUMA node 0 is negative");
    }

    @Test
    void unknownCpuIsNamed() {
        assertThatThrownBy(() -> DUAL_SOCKET_MULTI_NUMA_HT.info(80))
                .hasMessage("CPU 80 is not an online CPU of this machine (online: 0-79)");
    }
}
