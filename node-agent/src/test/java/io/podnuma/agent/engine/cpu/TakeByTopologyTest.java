package io.podnuma.agent.engine.cpu;

import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_NO_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.SINGLE_SOCKET_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.UNCORE_DUAL_SOCKET_NO_SMT;
import static io.podnuma.agent.engine.machine.TestTopologies.UNCORE_SINGLE_SOCKET_NO_SMT;
import static io.podnuma.agent.engine.machine.TestTopologies.UNCORE_SINGLE_SOCKET_SMT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Expected answers are the kubelet's, taken from its documented test cases (inputs and outputs only)
 * on the same machine shapes.
 */
class TakeByTopologyTest {

    private static CpuSet cpus(String list) {
        return CpuSet.parse(list);
    }

    @Test
    void packedOrderingOfFreeCpusFillsPartlyUsedCoresAndSocketsFirst() {
        assertThat(order(SINGLE_SOCKET_HT, "0-7")).containsExactly(0, 4, 1, 5, 2, 6, 3, 7);
        assertThat(order(SINGLE_SOCKET_HT, "3-7")).containsExactly(4, 5, 6, 3, 7);
        assertThat(order(DUAL_SOCKET_HT, "0-11")).containsExactly(0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11);
        assertThat(order(DUAL_SOCKET_HT, "1-11")).containsExactly(6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11);
        assertThat(order(DUAL_SOCKET_HT, "1-5,7-11")).containsExactly(2, 8, 4, 10, 1, 7, 3, 9, 5, 11);
    }

    @Test
    void coreOrdering() {
        CpuAccumulator all = new CpuAccumulator(DUAL_SOCKET_HT, cpus("0-11"), 0, CpuSortingStrategy.PACKED);
        assertThat(all.sortAvailableCores()).containsExactly(0, 2, 4, 1, 3, 5);
        CpuAccumulator some = new CpuAccumulator(DUAL_SOCKET_HT, cpus("1-5,7-11"), 0, CpuSortingStrategy.PACKED);
        assertThat(some.sortAvailableCores()).containsExactly(2, 4, 1, 3, 5);
    }

    @Test
    void numaNodesSortByFreeCpusThenId() {
        CpuAccumulator acc =
                new CpuAccumulator(DUAL_SOCKET_MULTI_NUMA_HT, cpus("1-9,11-59,61-79"), 0, CpuSortingStrategy.PACKED);
        // sockets first (4 NUMA nodes > 2 sockets): socket 0 has 38 free, socket 1 has 39.
        assertThat(acc.sortAvailableSockets()).containsExactly(0, 1);
        assertThat(acc.sortAvailableNumaNodes()).containsExactly(0, 1, 2, 3);
    }

    private static int[] order(CpuTopology topo, String available) {
        return new CpuAccumulator(topo, cpus(available), 0, CpuSortingStrategy.PACKED).sortAvailableCpusPacked();
    }

    static Stream<Arguments> packedCases() {
        return Stream.of(
                Arguments.of("zero CPUs", SINGLE_SOCKET_HT, false, false, "0-7", 0, ""),
                Arguments.of("one CPU", SINGLE_SOCKET_HT, false, false, "0-7", 1, "0"),
                Arguments.of("one CPU, some taken", SINGLE_SOCKET_HT, false, false, "1,3,5-7", 1, "6"),
                Arguments.of("two CPUs = one core", SINGLE_SOCKET_HT, false, false, "0-7", 2, "0,4"),
                Arguments.of("all CPUs", SINGLE_SOCKET_HT, false, false, "0-7", 8, "0-7"),
                Arguments.of("two CPUs, one whole core free", SINGLE_SOCKET_HT, false, false, "0-3,6", 2, "2,6"),
                Arguments.of("a socket", DUAL_SOCKET_HT, false, false, "0-11", 6, "0,2,4,6,8,10"),
                Arguments.of("one CPU from socket 0's free core", DUAL_SOCKET_HT, false, false, "1-5,7-11", 1, "2"),
                Arguments.of(
                        "4 cores: 3 fill NUMA 0, 1 from NUMA 1",
                        DUAL_SOCKET_HT,
                        false,
                        false,
                        "0-11",
                        8,
                        "0-2,4,6-8,10"),
                Arguments.of(
                        "a socket of a 4-NUMA machine",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        false,
                        false,
                        "0-79",
                        40,
                        "0-19,40-59"),
                Arguments.of("a NUMA node", DUAL_SOCKET_MULTI_NUMA_HT, false, false, "0-79", 20, "0-9,40-49"),
                Arguments.of(
                        "a NUMA node, one taken",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        false,
                        false,
                        "10-39,50-79",
                        20,
                        "10-19,50-59"),
                Arguments.of(
                        "a socket and a NUMA node", DUAL_SOCKET_MULTI_NUMA_HT, false, false, "0-79", 60, "0-29,40-69"),
                Arguments.of(
                        "a socket and a NUMA node, a core taken",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        false,
                        false,
                        "1-39,41-79",
                        60,
                        "10-39,50-79"),
                Arguments.of(
                        "32 cores: 3 NUMA nodes filled, 2 cores from the 4th",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        false,
                        false,
                        "0-79",
                        64,
                        "0-31,40-71"),
                // prefer-align-cpus-by-uncorecache
                Arguments.of(
                        "L3: two whole groups and part of one",
                        UNCORE_SINGLE_SOCKET_NO_SMT,
                        true,
                        false,
                        "1-15",
                        10,
                        "1-2,4-11"),
                Arguments.of("L3: one CPU, dual socket HT", DUAL_SOCKET_HT, true, false, "1-5,7-11", 1, "1"),
                Arguments.of(
                        "L3: first group of first socket", UNCORE_DUAL_SOCKET_NO_SMT, true, false, "0-15", 4, "0-3"),
                Arguments.of("L3: all free of first socket", UNCORE_DUAL_SOCKET_NO_SMT, true, false, "2-15", 6, "2-7"),
                Arguments.of(
                        "L3: first group of second socket", UNCORE_DUAL_SOCKET_NO_SMT, true, false, "8-15", 4, "8-11"),
                Arguments.of(
                        "L3: best group, SMT",
                        UNCORE_SINGLE_SOCKET_SMT,
                        true,
                        false,
                        "2-3,10-11,4-7,12-15",
                        6,
                        "4-6,12-14"),
                Arguments.of(
                        "L3: several groups, SMT",
                        UNCORE_SINGLE_SOCKET_SMT,
                        true,
                        false,
                        "1-7,9-15",
                        10,
                        "1,4-7,9,12-15"),
                // distribute-cpus-across-cores (spread)
                Arguments.of("spread 3 on one socket", SINGLE_SOCKET_HT, false, true, "0-7", 3, "0-2"),
                Arguments.of("spread 2, dual socket", DUAL_SOCKET_HT, false, true, "0-11", 2, "0,2"),
                Arguments.of("spread 3, dual socket", DUAL_SOCKET_HT, false, true, "0-11", 3, "0,2,4"),
                Arguments.of("spread 6, dual socket", DUAL_SOCKET_HT, false, true, "0-11", 6, "0,2,4,6,8,10"),
                Arguments.of("spread 8, dual socket", DUAL_SOCKET_HT, false, true, "0-11", 8, "0-4,6,8,10"),
                Arguments.of("spread 2, no SMT", DUAL_SOCKET_NO_HT, false, true, "0-7", 2, "0-1"),
                Arguments.of("spread 8, 4 NUMA nodes", DUAL_SOCKET_MULTI_NUMA_HT, false, true, "0-79", 8, "0-7"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packedCases")
    void packed(String name, CpuTopology topo, boolean uncore, boolean spread, String available, int n, String expected)
            throws CpuAllocationException {
        CpuSortingStrategy strategy = spread ? CpuSortingStrategy.SPREAD : CpuSortingStrategy.PACKED;
        assertThat(TakeByTopology.packed(topo, cpus(available), n, strategy, uncore))
                .isEqualTo(cpus(expected));
    }

    @Test
    void moreThanAvailableFailsWithRequestedAndAvailable() {
        assertThatThrownBy(() ->
                        TakeByTopology.packed(SINGLE_SOCKET_HT, cpus("0,2,4,6"), 5, CpuSortingStrategy.PACKED, false))
                .isInstanceOf(CpuAllocationException.class)
                .hasMessage("not enough cpus available to satisfy request: requested=5, available=4");
    }

    static Stream<Arguments> distributedCases() {
        return Stream.of(
                Arguments.of("a NUMA node", DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 20, 1, "0-9,40-49"),
                Arguments.of("4 cores, 2 per NUMA node", DUAL_SOCKET_HT, "0-11", 8, 1, "0-3,6-9"),
                Arguments.of(
                        "32 cores, 8 per node",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-79",
                        64,
                        1,
                        "0-7,10-17,20-27,30-37,40-47,50-57,60-67,70-77"),
                Arguments.of(
                        "24 cores over the first 3 nodes",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-79",
                        48,
                        1,
                        "0-7,10-17,20-27,40-47,50-57,60-67"),
                Arguments.of(
                        "24 cores, node 0 partly used",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "1-29,32-39,41-69,72-79",
                        48,
                        1,
                        "1-8,10-17,20-27,41-48,50-57,60-67"),
                Arguments.of(
                        "24 cores over the last 3 nodes for balance",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "2-29,31-39,42-69,71-79",
                        48,
                        1,
                        "10-17,20-27,31-38,50-57,60-67,71-78"),
                Arguments.of(
                        "8 cores, 2 per node",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-2,10-12,20-22,30-32,40-41,50-51,60-61,70-71",
                        16,
                        1,
                        "0-1,10-11,20-21,30-31,40-41,50-51,60-61,70-71"),
                Arguments.of("one CPU", DUAL_SOCKET_HT, "1-5,7-11", 1, 1, "1"),
                Arguments.of("one CPU, group size 2 falls back to packed", DUAL_SOCKET_HT, "1-5,7-11", 1, 2, "2"),
                Arguments.of(
                        "13 cores over 2 nodes", DUAL_SOCKET_MULTI_NUMA_HT, "0-79", 26, 1, "0-6,10-16,40-45,50-55"),
                Arguments.of(
                        "13 cores over 2 nodes, group size 2",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-79",
                        26,
                        2,
                        "0-6,10-15,40-46,50-55"),
                Arguments.of(
                        "31 cores, spill to nodes 0 and 1",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-79",
                        62,
                        1,
                        "0-7,10-17,20-27,30-37,40-47,50-57,60-66,70-76"),
                Arguments.of(
                        "31 cores, group size 2, spill to 0,1,2",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-79",
                        62,
                        2,
                        "0-7,10-17,20-27,30-36,40-47,50-57,60-67,70-76"),
                Arguments.of(
                        "31 cores, spill to 2 and 3 for balance",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-8,10-18,20-39,40-48,50-58,60-79",
                        62,
                        1,
                        "0-7,10-17,20-27,30-37,40-46,50-56,60-67,70-77"),
                Arguments.of(
                        "31 cores, group size 2, spill to 0,2,3",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-8,10-18,20-39,40-48,50-58,60-79",
                        62,
                        2,
                        "0-7,10-16,20-27,30-37,40-47,50-56,60-67,70-77"),
                Arguments.of(
                        "remainder only on nodes that can hold it",
                        DUAL_SOCKET_MULTI_NUMA_HT,
                        "0-3,10-13,20-23,30-36,40-43,50-53,60-63,70-76",
                        34,
                        1,
                        "0-3,10-13,20-23,30-34,40-43,50-53,60-63,70-74"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributedCases")
    void distributed(String name, CpuTopology topo, String available, int n, int groupSize, String expected)
            throws CpuAllocationException {
        assertThat(TakeByTopology.distributed(topo, cpus(available), n, groupSize, CpuSortingStrategy.PACKED, false))
                .isEqualTo(cpus(expected));
    }

    @Test
    void standardDeviationIsRoundedLikeUpstream() {
        assertThat(TakeByTopology.standardDeviation(new int[] {4, 4, 5, 5})).isEqualTo(0.5);
        assertThat(TakeByTopology.standardDeviation(new int[] {1, 2, 4})).isEqualTo(1.247);
        assertThat(TakeByTopology.standardDeviation(new int[] {7, 7, 7})).isZero();
    }
}
