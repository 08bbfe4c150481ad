package io.podnuma.agent.sysfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysfsTopologyReaderTest {

    private static final long GIB = 1024L * 1024 * 1024;

    @Test
    void laptop() {
        CpuTopology t = Fixtures.topology(FakeMachine.LAPTOP);
        assertThat(t.onlineCpus()).hasToString("0-7");
        assertThat(t.offlineCpus().isEmpty()).isTrue();
        assertThat(t.numSockets()).isEqualTo(1);
        assertThat(t.numNumaNodes()).isEqualTo(1);
        assertThat(t.numCores()).isEqualTo(4);
        assertThat(t.cpusPerCore()).isEqualTo(2);
        assertThat(t.numUncoreCaches()).isEqualTo(1);
        assertThat(t.info(5).siblings()).hasToString("1,5");
        assertThat(t.info(5).core()).isEqualTo(1);
        assertThat(t.info(5).kernelCoreId()).isEqualTo(1);
        assertThat(t.numaNodes()).hasSize(1);
        assertThat(t.numaNodes().getFirst().memoryBytes()).isEqualTo(16 * GIB);
        assertThat(t.distance(0, 0)).isEqualTo(10);
    }

    @Test
    void intelTwoSocketsWithHyperThreadingHasSiblingsSixtyFourApart() {
        CpuTopology t = Fixtures.topology(FakeMachine.INTEL_2S_HT);
        assertThat(t.numCpus()).isEqualTo(128);
        assertThat(t.numSockets()).isEqualTo(2);
        assertThat(t.numNumaNodes()).isEqualTo(2);
        assertThat(t.numCores()).isEqualTo(64);
        assertThat(t.info(3).siblings()).hasToString("3,67");
        assertThat(t.info(67).core()).isEqualTo(3);
        assertThat(t.info(40).socket()).isEqualTo(1);
        assertThat(t.info(40).kernelCoreId()).isEqualTo(8);
        assertThat(t.cpusInSocket(1)).hasToString("32-63,96-127");
        assertThat(t.cpusInNumaNode(0)).hasToString("0-31,64-95");
        assertThat(t.uncoreCacheIds()).hasToString("0-1");
        assertThat(t.distance(0, 1)).isEqualTo(21);
        NumaNode n1 = t.numaNode(1).orElseThrow();
        assertThat(n1.memoryBytes()).isEqualTo(192 * GIB);
        assertThat(n1.hugepages()).isEqualTo(Map.of(2048L, 512L, 1048576L, 8L));
        assertThat(n1.hugepageBytes()).isEqualTo(512 * 2 * 1024 * 1024L + 8 * GIB);
    }

    @Test
    void subNumaClusteringGivesTwoNodesPerSocketSharingOneL3() {
        CpuTopology t = Fixtures.topology(FakeMachine.INTEL_2S_SNC2);
        assertThat(t.numCpus()).isEqualTo(96);
        assertThat(t.numSockets()).isEqualTo(2);
        assertThat(t.numNumaNodes()).isEqualTo(4);
        assertThat(t.cpusInNumaNode(1)).hasToString("12-23,60-71");
        assertThat(t.numaNodesInSockets(CpuSet.of(1))).hasToString("2-3");
        assertThat(t.numUncoreCaches()).isEqualTo(2);
        assertThat(t.cpusInUncoreCache(0)).isEqualTo(t.cpusInSocket(0));
        assertThat(List.of(t.distance(0, 1), t.distance(0, 2), t.distance(3, 2)))
                .containsExactly(11, 21, 11);
    }

    @Test
    void epycNps4HasEightNodesAndSixteenL3Groups() {
        CpuTopology t = Fixtures.topology(FakeMachine.EPYC_2S_NPS4);
        assertThat(t.numCpus()).isEqualTo(256);
        assertThat(t.numSockets()).isEqualTo(2);
        assertThat(t.numNumaNodes()).isEqualTo(8);
        assertThat(t.numCores()).isEqualTo(128);
        assertThat(t.numUncoreCaches()).isEqualTo(16);
        assertThat(t.cpusPerUncoreCache()).isEqualTo(16);
        assertThat(t.info(130).siblings()).hasToString("2,130");
        assertThat(t.cpusInUncoreCache(9)).hasToString("72-79,200-207");
        assertThat(t.uncoreCachesOf(t.cpusInNumaNode(5))).hasToString("10-11");
        assertThat(t.cpusInNumaNode(5)).hasToString("80-95,208-223");
        assertThat(t.distance(5, 4)).isEqualTo(12);
        assertThat(t.distance(5, 0)).isEqualTo(32);
        assertThat(t.numaNodes()).allSatisfy(n -> assertThat(n.memoryBytes()).isEqualTo(64 * GIB));
    }

    @Test
    void cxlNodeIsMemoryOnly() {
        CpuTopology t = Fixtures.topology(FakeMachine.CXL);
        assertThat(t.numCpus()).isEqualTo(16);
        assertThat(t.numNumaNodes()).isEqualTo(1);
        assertThat(t.numaNodes()).hasSize(2);
        assertThat(t.memoryOnlyNumaNodeIds()).hasToString("1");
        NumaNode cxl = t.numaNode(1).orElseThrow();
        assertThat(cxl.memoryOnly()).isTrue();
        assertThat(cxl.memoryBytes()).isEqualTo(128 * GIB);
        assertThat(t.distance(0, 1)).isEqualTo(20);
        assertThat(t.distance(1, 1)).isEqualTo(10);
    }

    @Test
    void offlineCpusAreKnownButNotPlaced() {
        CpuTopology t = Fixtures.topology(FakeMachine.OFFLINE);
        assertThat(t.onlineCpus()).hasToString("0-13,16-28");
        assertThat(t.offlineCpus()).hasToString("14-15,29-31");
        assertThat(t.numCpus()).isEqualTo(27);
        assertThat(t.numCores()).isEqualTo(14);
        // CPU 29 (sibling of 13) is offline, so core 13 runs one thread.
        assertThat(t.info(13).siblings()).hasToString("13");
        assertThat(t.cpusInNumaNode(1)).hasToString("8-13,24-28");
        // The kubelet's integer division: 27 online CPUs / 14 cores.
        assertThat(t.cpusPerCore()).isEqualTo(1);
        assertThatThrownBy(() -> t.info(30)).hasMessageContaining("CPU 30 is not an online CPU");
    }

    @Test
    void benchmarkMachine() {
        CpuTopology t = Fixtures.topology(FakeMachine.BENCH_384);
        assertThat(t.numCpus()).isEqualTo(384);
        assertThat(t.numNumaNodes()).isEqualTo(8);
        assertThat(t.numUncoreCaches()).isEqualTo(24);
        assertThat(t.info(200).siblings()).hasToString("8,200");
        assertThat(t.cpusInNumaNode(7)).hasToString("168-191,360-383");
    }

    @Test
    void coreIdsAreUniqueAcrossSocketsEvenThoughKernelCoreIdsRepeat() {
        CpuTopology t = Fixtures.topology(FakeMachine.INTEL_2S_HT);
        CpuInfo a = t.info(0);
        CpuInfo b = t.info(32);
        assertThat(a.kernelCoreId()).isEqualTo(b.kernelCoreId());
        assertThat(a.core()).isNotEqualTo(b.core());
    }

    // ---- broken trees

    private static Path copyOf(FakeMachine m, Path tmp) {
        FakeSysfsWriter.write(m, tmp);
        return tmp;
    }

    private static SysfsException readFails(Path root) {
        try {
            new SysfsTopologyReader(root).read();
        } catch (SysfsException e) {
            return e;
        }
        throw new AssertionError("expected the tree at " + root + " to be rejected");
    }

    @Test
    void garbageInOnlineListNamesFileAndToken(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        Path online = root.resolve("devices/system/cpu/online");
        Files.writeString(online, "0-3,x\n");
        SysfsException e = readFails(root);
        assertThat(e.path()).isEqualTo(online);
        assertThat(e.getMessage()).contains(online.toString()).contains("\"x\"").contains("0-3,8,10-11");
    }

    @Test
    void onlineCpuWithoutTopologyIsRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        Files.writeString(root.resolve("devices/system/cpu/online"), "0-8\n");
        SysfsException e = readFails(root);
        assertThat(e.getMessage()).contains("cpu8/topology").contains("missing").contains("CPU 8 is listed");
    }

    @Test
    void disagreeingSiblingsAreRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        Files.writeString(root.resolve("devices/system/cpu/cpu1/topology/core_cpus_list"), "1,6\n");
        assertThat(readFails(root).getMessage()).contains("SMT siblings disagree");
    }

    @Test
    void nonNumericCoreIdIsReportedWithContentAndExpectation(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        Path coreId = root.resolve("devices/system/cpu/cpu2/topology/core_id");
        Files.writeString(coreId, "two\n");
        SysfsException e = readFails(root);
        assertThat(e.path()).isEqualTo(coreId);
        assertThat(e.getMessage()).contains("\"two\"").contains("expected an integer");
    }

    @Test
    void cpuInTwoNodesIsRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.INTEL_2S_HT, tmp);
        Files.writeString(root.resolve("devices/system/node/node1/cpulist"), "0,32-63,96-127\n");
        assertThat(readFails(root).getMessage()).contains("CPU 0 is also listed by node0");
    }

    @Test
    void cpuInNoNodeIsRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.INTEL_2S_HT, tmp);
        Files.writeString(root.resolve("devices/system/node/node1/cpulist"), "32-63,96-126\n");
        assertThat(readFails(root).getMessage()).contains("online CPU 127 is in no node's cpulist");
    }

    @Test
    void shortDistanceRowIsRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.INTEL_2S_HT, tmp);
        Path distance = root.resolve("devices/system/node/node0/distance");
        Files.writeString(distance, "10\n");
        SysfsException e = readFails(root);
        assertThat(e.path()).isEqualTo(distance);
        assertThat(e.getMessage()).contains("2 distances");
    }

    @Test
    void meminfoWithoutMemTotalIsRejected(@TempDir Path tmp) throws IOException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        Files.writeString(root.resolve("devices/system/node/node0/meminfo"), "Node 0 MemFree: 1 kB\n");
        assertThat(readFails(root).getMessage()).contains("MemTotal");
    }

    @Test
    void notASysfsRoot(@TempDir Path tmp) {
        assertThat(readFails(tmp).getMessage()).contains("is " + tmp + " a sysfs root");
    }

    @Test
    void kernelWithoutNumaGivesOneNode(@TempDir Path tmp) throws IOException, SysfsException {
        Path root = copyOf(FakeMachine.LAPTOP, tmp);
        try (var s = Files.walk(root.resolve("devices/system/node"))) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        CpuTopology t = new SysfsTopologyReader(root).read();
        assertThat(t.numaNodes()).hasSize(1);
        assertThat(t.cpusInNumaNode(0)).hasToString("0-7");
    }

    @Test
    void missingL3FallsBackToSocket(@TempDir Path tmp) throws IOException, SysfsException {
        Path root = copyOf(FakeMachine.INTEL_2S_HT, tmp);
        for (int cpu = 0; cpu < 128; cpu++) {
            Path index3 = root.resolve("devices/system/cpu/cpu" + cpu + "/cache/index3");
            try (var s = Files.walk(index3)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        CpuTopology t = new SysfsTopologyReader(root).read();
        assertThat(t.info(40).uncoreCache()).isEqualTo(1);
        assertThat(t.numUncoreCaches()).isEqualTo(2);
    }
}
