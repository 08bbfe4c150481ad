package io.podnuma.agent.sysfs;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Discovers the machine from a sysfs root ({@code /sys} on a host, a fake tree in tests).
 *
 * <p>Reads {@code devices/system/cpu} (online and offline lists, per-CPU topology and caches) and
 * {@code devices/system/node} (per-node CPUs, distances, memory and hugepages). Only online CPUs get a
 * place in the topology; memory-only nodes are kept as nodes without CPUs.
 */
public final class SysfsTopologyReader {

    private static final Pattern NODE_DIR = Pattern.compile("node(\\d+)");
    private static final Pattern INDEX_DIR = Pattern.compile("index(\\d+)");
    private static final Pattern HUGEPAGES_DIR = Pattern.compile("hugepages-(\\d+)kB");
    private static final Pattern MEM_TOTAL = Pattern.compile("(?m)^Node\\s+\\d+\\s+MemTotal:\\s+(\\d+)\\s+kB\\s*$");

    private final Path root;

    public SysfsTopologyReader(Path sysfsRoot) {
        this.root = sysfsRoot;
    }

    /** Reads the host's {@code /sys}. */
    public static SysfsTopologyReader host() {
        return new SysfsTopologyReader(Path.of("/sys"));
    }

    public CpuTopology read() throws SysfsException {
        Path cpuDir = root.resolve("devices/system/cpu");
        if (!Files.isDirectory(cpuDir)) {
            throw new SysfsException(cpuDir, "not a directory; is " + root + " a sysfs root (such as /sys)?");
        }
        CpuSet online = readCpuList(cpuDir.resolve("online"), true);
        CpuSet offline = readCpuList(cpuDir.resolve("offline"), false);
        if (online.isEmpty()) {
            throw SysfsException.badContent(cpuDir.resolve("online"), "", "at least one online CPU");
        }

        Map<Integer, CpuSet> siblings = new HashMap<>();
        Map<Integer, int[]> placement = new HashMap<>(); // cpu -> {package, die, coreId, uncore}
        int[] onlineIds = online.toArray();
        for (int cpu : onlineIds) {
            Path topo = cpuDir.resolve("cpu" + cpu).resolve("topology");
            if (!Files.isDirectory(topo)) {
                throw new SysfsException(topo, "missing, but CPU " + cpu + " is listed in " + cpuDir.resolve("online"));
            }
            int pkg = readTopologyId(topo.resolve("physical_package_id"), true);
            int die = readTopologyId(topo.resolve("die_id"), false);
            int coreId = readInt(topo.resolve("core_id"), true, 0);
            Path siblingsFile = Files.exists(topo.resolve("core_cpus_list"))
                    ? topo.resolve("core_cpus_list")
                    : topo.resolve("thread_siblings_list");
            CpuSet sib = readCpuList(siblingsFile, true).intersection(online);
            if (!sib.contains(cpu)) {
                throw SysfsException.badContent(
                        siblingsFile, readString(siblingsFile), "a list that contains CPU " + cpu + " itself");
            }
            siblings.put(cpu, sib);
            int uncore = readUncoreCache(cpuDir.resolve("cpu" + cpu).resolve("cache"), pkg);
            placement.put(cpu, new int[] {pkg, die, coreId, uncore});
        }
        checkSiblings(cpuDir, siblings, placement);

        List<NumaNode> nodes = readNodes(online);
        Map<Integer, Integer> nodeOfCpu = new HashMap<>();
        for (NumaNode n : nodes) {
            for (int cpu : n.cpus().toArray()) {
                Integer previous = nodeOfCpu.put(cpu, n.id());
                if (previous != null) {
                    throw new SysfsException(
                            root.resolve("devices/system/node/node" + n.id() + "/cpulist"),
                            "CPU " + cpu + " is also listed by node" + previous + "; a CPU belongs to one node");
                }
            }
        }
        for (int cpu : onlineIds) {
            if (!nodeOfCpu.containsKey(cpu)) {
                throw new SysfsException(
                        root.resolve("devices/system/node"), "online CPU " + cpu + " is in no node's cpulist");
            }
        }

        List<CpuInfo> cpus = new ArrayList<>(onlineIds.length);
        for (int cpu : onlineIds) {
            int[] p = placement.get(cpu);
            CpuSet sib = siblings.get(cpu);
            cpus.add(new CpuInfo(cpu, p[0], p[1], nodeOfCpu.get(cpu), sib.first(), p[2], p[3], sib));
        }
        try {
            return new CpuTopology(cpus, offline, nodes);
        } catch (IllegalArgumentException e) {
            throw new SysfsException(root, "inconsistent machine: " + e.getMessage(), e);
        }
    }

    private void checkSiblings(Path cpuDir, Map<Integer, CpuSet> siblings, Map<Integer, int[]> placement)
            throws SysfsException {
        for (Map.Entry<Integer, CpuSet> e : siblings.entrySet()) {
            int cpu = e.getKey();
            for (int other : e.getValue().toArray()) {
                CpuSet theirs = siblings.get(other);
                Path path = cpuDir.resolve("cpu" + other).resolve("topology");
                if (!e.getValue().equals(theirs)) {
                    throw new SysfsException(
                            path,
                            "SMT siblings disagree: cpu" + cpu + " lists " + e.getValue() + " but cpu" + other
                                    + " lists " + theirs + "; siblings must list the same CPUs");
                }
                int[] a = placement.get(cpu);
                int[] b = placement.get(other);
                if (a[0] != b[0] || a[2] != b[2]) {
                    throw new SysfsException(
                            path,
                            "SMT siblings cpu" + cpu + " and cpu" + other + " report different package/core ids ("
                                    + a[0] + "/" + a[2] + " vs " + b[0] + "/" + b[2] + ")");
                }
            }
        }
    }

    /** The L3 (highest-level unified) cache id; the package id when the CPU reports no such cache. */
    private int readUncoreCache(Path cacheDir, int pkg) throws SysfsException {
        if (!Files.isDirectory(cacheDir)) {
            return pkg;
        }
        int bestLevel = -1;
        Path best = null;
        for (Path index : list(cacheDir)) {
            if (!INDEX_DIR.matcher(index.getFileName().toString()).matches()) {
                continue;
            }
            int level = readInt(index.resolve("level"), true, 0);
            String type = readString(index.resolve("type")).strip();
            if (level >= 3 && "Unified".equals(type) && level > bestLevel) {
                bestLevel = level;
                best = index;
            }
        }
        if (best == null) {
            return pkg;
        }
        if (Files.exists(best.resolve("id"))) {
            return readInt(best.resolve("id"), true, 0);
        }
        // Kernels before 4.14 have no id file: the lowest CPU sharing the cache names it.
        CpuSet shared = readCpuList(best.resolve("shared_cpu_list"), true);
        if (shared.isEmpty()) {
            throw SysfsException.badContent(best.resolve("shared_cpu_list"), "", "a non-empty CPU list");
        }
        return shared.first();
    }

    private List<NumaNode> readNodes(CpuSet online) throws SysfsException {
        Path nodeDir = root.resolve("devices/system/node");
        if (!Files.isDirectory(nodeDir)) {
            // A kernel without NUMA support: one node holding everything, memory unknown.
            return List.of(new NumaNode(0, online, 0, Map.of(), List.of()));
        }
        TreeMap<Integer, Path> dirs = new TreeMap<>();
        for (Path p : list(nodeDir)) {
            Matcher m = NODE_DIR.matcher(p.getFileName().toString());
            if (m.matches() && Files.isDirectory(p)) {
                dirs.put(Integer.parseInt(m.group(1)), p);
            }
        }
        if (dirs.isEmpty()) {
            throw new SysfsException(nodeDir, "contains no nodeN directory; expected at least node0");
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (Map.Entry<Integer, Path> e : dirs.entrySet()) {
            Path dir = e.getValue();
            CpuSet cpus = readCpuList(dir.resolve("cpulist"), true).intersection(online);
            List<Integer> distances = readDistances(dir.resolve("distance"), dirs.size());
            long memory = readMemTotal(dir.resolve("meminfo"));
            Map<Long, Long> huge = readHugepages(dir.resolve("hugepages"));
            nodes.add(new NumaNode(e.getKey(), cpus, memory, huge, distances));
        }
        return nodes;
    }

    private List<Integer> readDistances(Path file, int nodeCount) throws SysfsException {
        Optional<String> content = readOptional(file);
        if (content.isEmpty()) {
            return List.of();
        }
        String[] parts = content.get().strip().split("\\s+");
        List<Integer> out = new ArrayList<>();
        for (String part : parts) {
            try {
                int d = Integer.parseInt(part);
                if (d <= 0) {
                    throw new NumberFormatException();
                }
                out.add(d);
            } catch (NumberFormatException ex) {
                throw SysfsException.badContent(
                        file, content.get(), nodeCount + " positive integers separated by spaces, one per node");
            }
        }
        if (out.size() != nodeCount) {
            throw SysfsException.badContent(
                    file, content.get(), nodeCount + " distances (one per node directory), found " + out.size());
        }
        return out;
    }

    private long readMemTotal(Path file) throws SysfsException {
        String content = readString(file);
        Matcher m = MEM_TOTAL.matcher(content);
        if (!m.find()) {
            throw SysfsException.badContent(file, content, "a line \"Node <n> MemTotal: <kB> kB\"");
        }
        return Long.parseLong(m.group(1)) * 1024L;
    }

    private Map<Long, Long> readHugepages(Path dir) throws SysfsException {
        Map<Long, Long> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        for (Path p : list(dir)) {
            Matcher m = HUGEPAGES_DIR.matcher(p.getFileName().toString());
            if (m.matches()) {
                out.put(Long.parseLong(m.group(1)), (long) readInt(p.resolve("nr_hugepages"), true, 0));
            }
        }
        return out;
    }

    // ---- file helpers

    private static List<Path> list(Path dir) throws SysfsException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new SysfsException(dir, "cannot list directory: " + e, e);
        }
    }

    private static Optional<String> readOptional(Path file) throws SysfsException {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new SysfsException(file, "cannot read: " + e, e);
        }
    }

    /** A file every kernel with the features the agent needs writes: the tree is not a whole sysfs. */
    private static String missing(String expected) {
        return "missing; expected " + expected + " here (is the host's /sys mounted whole?)";
    }

    private static String readString(Path file) throws SysfsException {
        Optional<String> s = readOptional(file);
        if (s.isEmpty()) {
            throw new SysfsException(file, missing("the kernel's file"));
        }
        return s.get();
    }

    private static CpuSet readCpuList(Path file, boolean required) throws SysfsException {
        Optional<String> s = readOptional(file);
        if (s.isEmpty()) {
            if (required) {
                throw new SysfsException(file, missing("a CPU list such as 0-3,8"));
            }
            return CpuSet.empty();
        }
        try {
            return CpuSet.parse(s.get());
        } catch (IllegalArgumentException e) {
            throw new SysfsException(file, e.getMessage(), e);
        }
    }

    /** Some platforms (VMs, non-x86) report -1 for a package or die they cannot tell: that is id 0. */
    private static int readTopologyId(Path file, boolean required) throws SysfsException {
        Optional<String> s = readOptional(file);
        if (s.isPresent() && s.get().strip().equals("-1")) {
            return 0;
        }
        return readInt(file, required, 0);
    }

    private static int readInt(Path file, boolean required, int fallback) throws SysfsException {
        Optional<String> s = readOptional(file);
        if (s.isEmpty()) {
            if (required) {
                throw new SysfsException(file, missing("an integer"));
            }
            return fallback;
        }
        try {
            int v = Integer.parseInt(s.get().strip());
            if (v < 0 || v > CpuSet.MAX_ID) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw SysfsException.badContent(file, s.get(), "an integer in 0.." + CpuSet.MAX_ID);
        }
    }
}
