package io.podnuma.agent.sysfs;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * Writes a fake sysfs tree for a {@link FakeMachine}: the files the discovery reads, with the content
 * and formatting the kernel uses (trailing newlines, {@code Node N MemTotal: ... kB} lines, empty
 * lists as a bare newline). Offline CPUs keep their {@code cpuN} directory with {@code online = 0}
 * and no topology, as on a real host.
 *
 * <p>Regenerate the checked-in fixtures with
 * {@code ./mvnw -pl node-agent test -Dtest=SysfsFixturesTest -Dpodnuma.fixtures.write=true}.
 */
public final class FakeSysfsWriter {

    private FakeSysfsWriter() {}

    public static void write(FakeMachine m, Path root) {
        try {
            writeCpus(m, root.resolve("devices/system/cpu"));
            writeNodes(m, root.resolve("devices/system/node"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeCpus(FakeMachine m, Path cpuDir) throws IOException {
        CpuSet online = m.online();
        String all = CpuSet.range(0, m.totalCpus() - 1).toString();
        put(cpuDir.resolve("online"), online.toString());
        put(cpuDir.resolve("offline"), m.offline().toString());
        put(cpuDir.resolve("possible"), all);
        put(cpuDir.resolve("present"), all);
        for (int cpu = 0; cpu < m.totalCpus(); cpu++) {
            final int cpuId = cpu;
            Path dir = cpuDir.resolve("cpu" + cpu);
            if (cpu != 0) {
                // cpu0 cannot be offlined on most x86 hosts and has no online file there.
                put(dir.resolve("online"), online.contains(cpu) ? "1" : "0");
            }
            if (!online.contains(cpu)) {
                Files.createDirectories(dir);
                continue;
            }
            CpuSet siblings = m.threadsOfCore(m.coreOf(cpu)).intersection(online);
            Path topo = dir.resolve("topology");
            put(topo.resolve("physical_package_id"), Integer.toString(m.socketOf(cpu)));
            put(topo.resolve("die_id"), "0");
            put(topo.resolve("core_id"), Integer.toString(m.kernelCoreId(cpu)));
            put(topo.resolve("thread_siblings_list"), siblings.toString());
            put(topo.resolve("core_cpus_list"), siblings.toString());
            Path cache = dir.resolve("cache");
            // L1 caches (index0, index1) are left out to keep the trees small; L2 stays so that the
            // reader has to pick the right level.
            cacheIndex(cache.resolve("index2"), 2, "Unified", siblings.toString(), m.coreOf(cpu));
            String l3 = cpusWhere(m, online, c -> m.l3Of(c) == m.l3Of(cpuId));
            cacheIndex(cache.resolve("index3"), 3, "Unified", l3, m.l3Of(cpu));
        }
    }

    private interface CpuFilter {
        boolean test(int cpu);
    }

    private static String cpusWhere(FakeMachine m, CpuSet online, CpuFilter f) {
        CpuSet.Builder b = CpuSet.builder();
        online.forEach(c -> {
            if (f.test(c)) {
                b.add(c);
            }
        });
        return b.build().toString();
    }

    private static void cacheIndex(Path dir, int level, String type, String shared, int id) throws IOException {
        put(dir.resolve("level"), Integer.toString(level));
        put(dir.resolve("type"), type);
        put(dir.resolve("shared_cpu_list"), shared);
        put(dir.resolve("id"), Integer.toString(id));
    }

    private static void writeNodes(FakeMachine m, Path nodeDir) throws IOException {
        CpuSet online = m.online();
        String allNodes = CpuSet.range(0, m.totalNodes() - 1).toString();
        put(nodeDir.resolve("online"), allNodes);
        put(nodeDir.resolve("possible"), allNodes);
        put(nodeDir.resolve("has_cpu"), CpuSet.range(0, m.cpuNumaNodes() - 1).toString());
        put(nodeDir.resolve("has_memory"), allNodes);
        for (int node = 0; node < m.totalNodes(); node++) {
            Path dir = nodeDir.resolve("node" + node);
            boolean memoryOnly = node >= m.cpuNumaNodes();
            int n = node;
            put(dir.resolve("cpulist"), memoryOnly ? "" : cpusWhere(m, online, c -> m.numaOf(c) == n));
            StringJoiner distances = new StringJoiner(" ");
            for (int other = 0; other < m.totalNodes(); other++) {
                distances.add(Integer.toString(m.distance(node, other)));
            }
            put(dir.resolve("distance"), distances.toString());
            long memKiB = memoryOnly ? m.memoryOnlyNodeKiB() : m.memoryPerNodeKiB();
            long huge2 = memoryOnly ? 0 : m.hugepages2MiPerNode();
            long huge1 = memoryOnly ? 0 : m.hugepages1GiPerNode();
            put(dir.resolve("meminfo"), meminfo(node, memKiB, huge2 + huge1));
            put(dir.resolve("hugepages/hugepages-2048kB/nr_hugepages"), Long.toString(huge2));
            put(dir.resolve("hugepages/hugepages-1048576kB/nr_hugepages"), Long.toString(huge1));
        }
    }

    private static String meminfo(int node, long totalKiB, long hugeTotal) {
        long free = totalKiB / 2;
        return String.format(
                        "Node %d MemTotal:       %d kB\n" + "Node %d MemFree:        %d kB\n"
                                + "Node %d MemUsed:        %d kB\n" + "Node %d HugePages_Total: %d\n"
                                + "Node %d HugePages_Free:  %d\n",
                        node, totalKiB, node, free, node, totalKiB - free, node, hugeTotal, node, hugeTotal)
                .stripTrailing();
    }

    private static void put(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content + "\n", StandardCharsets.US_ASCII);
    }
}
