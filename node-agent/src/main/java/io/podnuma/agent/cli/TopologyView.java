package io.podnuma.agent.cli;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a machine for people (a table) and for programs (JSON schema {@value #SCHEMA}, documented
 * in node-agent/docs/behaviour.md; fields are only ever added).
 */
final class TopologyView {

    static final String SCHEMA = "podnuma.io/topology/v1";

    private TopologyView() {}

    static Map<String, Object> toJson(CpuTopology t) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        root.put("onlineCpus", t.onlineCpus().toString());
        root.put("offlineCpus", t.offlineCpus().toString());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("cpus", t.numCpus());
        counts.put("sockets", t.numSockets());
        counts.put("numaNodes", t.numaNodes().size());
        counts.put("cpuNumaNodes", t.numNumaNodes());
        counts.put("memoryOnlyNumaNodes", t.memoryOnlyNumaNodeIds().size());
        counts.put("cores", t.numCores());
        counts.put("threadsPerCore", t.cpusPerCore());
        counts.put("uncoreCaches", t.numUncoreCaches());
        root.put("counts", counts);

        List<Object> sockets = new ArrayList<>();
        for (int s : t.socketIds().toArray()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s);
            m.put("cpus", t.cpusInSocket(s).toString());
            m.put("dies", t.dieIds(s).toString());
            m.put("numaNodes", t.numaNodesInSockets(CpuSet.of(s)).toString());
            sockets.add(m);
        }
        root.put("sockets", sockets);

        List<Object> nodes = new ArrayList<>();
        for (NumaNode n : t.numaNodes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", n.id());
            m.put("cpus", n.cpus().toString());
            m.put("memoryOnly", n.memoryOnly());
            m.put("memoryBytes", n.memoryBytes());
            List<Object> huge = new ArrayList<>();
            n.hugepages().forEach((size, pages) -> {
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("pageSizeKiB", size);
                h.put("pages", pages);
                huge.add(h);
            });
            m.put("hugepages", huge);
            Map<String, Object> distances = new LinkedHashMap<>();
            for (NumaNode other : t.numaNodes()) {
                int d = t.distance(n.id(), other.id());
                if (d >= 0) {
                    distances.put(Integer.toString(other.id()), d);
                }
            }
            m.put("distances", distances);
            m.put("uncoreCaches", t.uncoreCachesOf(n.cpus()).toString());
            nodes.add(m);
        }
        root.put("numaNodes", nodes);

        List<Object> caches = new ArrayList<>();
        for (int u : t.uncoreCacheIds().toArray()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", u);
            m.put("cpus", t.cpusInUncoreCache(u).toString());
            m.put("numaNodes", t.numaNodesOf(t.cpusInUncoreCache(u)).toString());
            caches.add(m);
        }
        root.put("uncoreCaches", caches);

        List<Object> cores = new ArrayList<>();
        for (int c : t.coreIds().toArray()) {
            CpuInfo first = t.info(c);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c);
            m.put("cpus", t.cpusInCore(c).toString());
            m.put("socket", first.socket());
            m.put("die", first.die());
            m.put("numaNode", first.numaNode());
            m.put("uncoreCache", first.uncoreCache());
            m.put("kernelCoreId", first.kernelCoreId());
            cores.add(m);
        }
        root.put("cores", cores);
        return root;
    }

    static String toTable(CpuTopology t) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%d online CPUs (%s), offline: %s%n%d socket(s), %d NUMA node(s) with CPUs, %d memory-only,"
                        + " %d cores x %d threads, %d L3 group(s)%n%n",
                t.numCpus(),
                t.onlineCpus(),
                t.offlineCpus().isEmpty() ? "none" : t.offlineCpus().toString(),
                t.numSockets(),
                t.numNumaNodes(),
                t.memoryOnlyNumaNodeIds().size(),
                t.numCores(),
                t.cpusPerCore(),
                t.numUncoreCaches()));
        sb.append(String.format(Locale.ROOT, "%-7s %-9s %s%n", "SOCKET", "NODES", "CPUS"));
        for (int s : t.socketIds().toArray()) {
            sb.append(String.format(
                    Locale.ROOT, "%-7d %-9s %s%n", s, t.numaNodesInSockets(CpuSet.of(s)), t.cpusInSocket(s)));
        }
        sb.append(String.format(
                Locale.ROOT,
                "%n%-5s %-11s %-11s %-24s %-16s %s%n",
                "NODE",
                "MEMORY",
                "L3",
                "HUGEPAGES",
                "DISTANCES",
                "CPUS"));
        for (NumaNode n : t.numaNodes()) {
            List<String> huge = new ArrayList<>();
            n.hugepages().forEach((size, pages) -> huge.add(pages + "x" + pageSize(size)));
            List<String> dist = new ArrayList<>();
            for (NumaNode other : t.numaNodes()) {
                int d = t.distance(n.id(), other.id());
                dist.add(d < 0 ? "?" : Integer.toString(d));
            }
            sb.append(String.format(
                    Locale.ROOT,
                    "%-5d %-11s %-11s %-24s %-16s %s%n",
                    n.id(),
                    gib(n.memoryBytes()),
                    n.memoryOnly() ? "-" : t.uncoreCachesOf(n.cpus()).toString(),
                    huge.isEmpty() ? "-" : String.join(",", huge),
                    String.join(" ", dist),
                    n.memoryOnly() ? "(memory only)" : n.cpus().toString()));
        }
        sb.append(String.format(Locale.ROOT, "%n%-4s %-7s %s%n", "L3", "NODES", "CPUS"));
        for (int u : t.uncoreCacheIds().toArray()) {
            CpuSet cpus = t.cpusInUncoreCache(u);
            sb.append(String.format(Locale.ROOT, "%-4d %-7s %s%n", u, t.numaNodesOf(cpus), cpus));
        }
        return sb.toString();
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    private static String pageSize(long kib) {
        return kib % (1024 * 1024) == 0 ? kib / (1024 * 1024) + "Gi" : kib % 1024 == 0 ? kib / 1024 + "Mi" : kib + "Ki";
    }
}
