package io.podnuma.agent.qemu;

import io.podnuma.agent.cgroup.CgroupDetector;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWrite;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.CpusetWriter;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.cgroup.WritableCgroupFile;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs inside the QEMU guest (not a test itself): discovers the topology from the guest's real
 * {@code /sys}, drives the cgroup v2 writer on the real cgroup2 mount with real {@code sleep}
 * processes, and records what the kernel reports as {@code key=value} lines for
 * {@link RealNumaGuestIT} to assert. It records observations, not verdicts, so a failure on the host
 * shows the guest's actual value.
 */
public final class GuestCheck {

    private static final Path CGROUP = Path.of("/sys/fs/cgroup");
    private static final String POD_UID = "0b5c7a44-3f1e-4c55-9d0a-2d6f8e1a7b31";

    private final Map<String, String> results = new LinkedHashMap<>();
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, Long> pids = new LinkedHashMap<>();
    private HostCgroupFiles files;

    public static void main(String[] args) throws IOException {
        GuestCheck check = new GuestCheck();
        try {
            CpuTopology topology = check.topology();
            check.cgroups(topology);
            check.results.put("completed", "true");
        } catch (Throwable t) {
            StringWriter trace = new StringWriter();
            t.printStackTrace(new PrintWriter(trace));
            check.results.put("failure", trace.toString());
        } finally {
            check.processes.forEach(Process::destroyForcibly);
        }
        StringBuilder out = new StringBuilder();
        check.results.forEach((k, v) -> out.append(k)
                .append('=')
                .append(v.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n'));
        Files.writeString(Path.of(args[0]), out);
    }

    private CpuTopology topology() throws Exception {
        CpuTopology t = SysfsTopologyReader.host().read();
        results.put("topology.onlineCpus", t.onlineCpus().toString());
        results.put("topology.sockets", String.valueOf(t.numSockets()));
        results.put("topology.numaNodes", t.numaNodeIds().toString());
        results.put("topology.cores", String.valueOf(t.numCores()));
        results.put("topology.cpusPerCore", String.valueOf(t.cpusPerCore()));
        for (NumaNode n : t.numaNodes()) {
            String p = "node." + n.id() + ".";
            results.put(p + "cpus", n.cpus().toString());
            results.put(p + "memoryBytes", String.valueOf(n.memoryBytes()));
            results.put(
                    p + "distances", n.distances().stream().map(String::valueOf).collect(Collectors.joining(",")));
            results.put(p + "sockets", t.socketsInNumaNodes(CpuSet.of(n.id())).toString());
        }
        for (CpuInfo c : t.cpus()) {
            results.put(
                    "cpu." + c.cpu(),
                    "socket=" + c.socket() + " node=" + c.numaNode() + " core=" + c.core() + " siblings="
                            + c.siblings());
        }
        return t;
    }

    /**
     * A Burstable pod with container {@code a} and sibling {@code b} (cgroupfs naming, driver detected),
     * plus container {@code d} in a systemd-named tree (driver given, as both kubepods trees then exist).
     */
    private void cgroups(CpuTopology t) throws Exception {
        results.put(
                "cgroup.controllers",
                Files.readString(CGROUP.resolve("cgroup.controllers")).strip());
        Files.createDirectory(CGROUP.resolve("kubepods"));
        String mountinfo = Files.readString(Path.of("/proc/self/mountinfo"));
        CgroupLayout layout = new CgroupDetector(CGROUP).detect(mountinfo, Optional.empty());
        results.put("layout.version", layout.version().name());
        results.put("layout.driver", layout.naming().driver().name());
        results.put("layout.cpusetRoot", layout.cpusetRoot().toString());
        files = new HostCgroupFiles(layout); // the systemd layout below has the same roots

        CgroupPath a = containerCgroup(layout, PodQos.BURSTABLE, ContainerRuntime.CONTAINERD, 'a');
        CgroupPath b = containerCgroup(layout, PodQos.BURSTABLE, ContainerRuntime.CRIO, 'b');
        start("a", a);
        start("b", b);
        record("start");
        CpusetWriter writer = new CpusetWriter(layout, files);
        CpuSet n0 = t.cpusInNumaNode(0);
        CpuSet n1 = t.cpusInNumaNode(1);
        CpuSet n3 = t.cpusInNumaNode(3);

        step("sibling-node0", () -> writer.apply(b, n0, CpuSet.of(0)));
        step("a-node1", () -> writer.apply(a, n1, CpuSet.of(1)));
        step("a-socket1", () -> writer.apply(a, t.cpusInNumaNodes(CpuSet.of(2, 3)), CpuSet.of(2, 3)));
        CpuSet oneCore = t.cpusInCore(t.coresOf(n3).first());
        step("a-node3-one-core", () -> writer.apply(a, oneCore, CpuSet.of(3)));
        step("a-node3-one-core-again", () -> writer.apply(a, oneCore, CpuSet.of(3)));

        // A pod bubble on socket 0 (as a pod-level resources pod cgroup would get) hides a's CPUs on
        // node 3; the writer must grow the pod cgroup to bring them back.
        Path podDir = a.parent().in(layout.cpusetRoot());
        files.write(new CgroupWrite(
                podDir,
                WritableCgroupFile.CPUSET_CPUS,
                t.cpusInNumaNodes(CpuSet.of(0, 1)).toString()));
        files.write(new CgroupWrite(podDir, WritableCgroupFile.CPUSET_MEMS, "0-1"));
        record("pod-bubble-socket0");
        step("a-node3-through-bubble", () -> writer.apply(a, oneCore, CpuSet.of(3)));

        step("a-empty-mems-refused", () -> writer.apply(a, oneCore, CpuSet.empty()));
        int missing = t.onlineCpus().last() + 1;
        step("a-missing-cpu-refused", () -> writer.apply(a, oneCore.union(CpuSet.of(missing)), CpuSet.of(3)));

        step("sibling-shrink", () -> writer.apply(b, n0.lowest(2), CpuSet.of(0)));
        step("a-node0-beside-sibling", () -> writer.apply(a, n0.difference(n0.lowest(2)), CpuSet.of(0)));

        // The systemd layout on the same mount: with both kubepods trees present the driver is explicit.
        Files.createDirectory(CGROUP.resolve("kubepods.slice"));
        CgroupLayout systemd = new CgroupDetector(CGROUP).detect(mountinfo, Optional.of(CgroupDriver.SYSTEMD));
        results.put("systemd.layout.driver", systemd.naming().driver().name());
        CgroupPath d = containerCgroup(systemd, PodQos.GUARANTEED, ContainerRuntime.CONTAINERD, 'd');
        start("d", d);
        CpusetWriter systemdWriter = new CpusetWriter(systemd, files);
        step("d-node2", () -> systemdWriter.apply(d, t.cpusInNumaNode(2), CpuSet.of(2)));
        step("d-node1-and-node2", () -> systemdWriter.apply(d, t.cpusInNumaNodes(CpuSet.of(1, 2)), CpuSet.of(1, 2)));
    }

    private interface Apply {
        List<CgroupWrite> run() throws CgroupWriteException;
    }

    /** Applies, records the writes (or the refusal) and then every process's allowed lists. */
    private void step(String name, Apply apply) throws IOException {
        try {
            List<CgroupWrite> writes = apply.run();
            results.put(
                    name + ".writes",
                    writes.stream()
                            .map(w -> CGROUP.relativize(w.path()) + ":" + w.value())
                            .collect(Collectors.joining(";")));
        } catch (CgroupWriteException e) {
            results.put(name + ".error", e.getMessage());
        }
        record(name);
    }

    private void record(String name) throws IOException {
        for (Map.Entry<String, Long> p : pids.entrySet()) {
            String prefix = name + "." + p.getKey() + ".";
            results.put(prefix + "cpus", allowed(p.getValue(), "Cpus_allowed_list"));
            results.put(prefix + "mems", allowed(p.getValue(), "Mems_allowed_list"));
        }
    }

    private static CgroupPath containerCgroup(CgroupLayout layout, PodQos qos, ContainerRuntime runtime, char fill)
            throws IOException {
        CgroupPath path = layout.naming()
                .containerPath(new ContainerCgroup(
                        qos,
                        POD_UID,
                        new ContainerId(runtime, String.valueOf(fill).repeat(64))));
        Files.createDirectories(path.in(layout.cpusetRoot())); // mkdir in cgroupfs creates the cgroups
        return path;
    }

    private void start(String label, CgroupPath cgroup) throws IOException {
        Process p = new ProcessBuilder("sleep", "600").start();
        processes.add(p);
        pids.put(label, p.pid());
        // The runtime's part, which the agent's files cannot do.
        Files.writeString(cgroup.in(CGROUP).resolve("cgroup.procs"), String.valueOf(p.pid()));
    }

    private static String allowed(long pid, String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        throw new IOException("/proc/" + pid + "/status has no " + key);
    }
}
