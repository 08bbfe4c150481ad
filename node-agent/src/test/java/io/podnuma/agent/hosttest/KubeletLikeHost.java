package io.podnuma.agent.hosttest;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A private subtree of this machine's real cgroup v1 cpuset hierarchy that stands in for its root, with the
 * kubelet's and containerd's directories made the way they make them (every level gets all CPUs and memory nodes,
 * as under {@code cpuManagerPolicy: none}) and a real process in each container.
 */
public final class KubeletLikeHost implements AutoCloseable {

    public static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");

    private final HostCgroupFiles files = new HostCgroupFiles();
    private final Path root;
    private final CgroupLayout layout;
    private final CpuSet cpus;
    private final CpuSet mems;
    private final Map<CgroupPath, Process> processes = new LinkedHashMap<>();

    private KubeletLikeHost(Path root, CgroupLayout layout, CpuSet cpus, CpuSet mems) {
        this.root = root;
        this.layout = layout;
        this.cpus = cpus;
        this.mems = mems;
    }

    /** Skips the calling test (with the reason) when this machine has no v1 cpuset hierarchy or we are not root. */
    public static KubeletLikeHost create(CgroupDriver driver) throws IOException {
        Assumptions.assumeTrue(
                Files.isRegularFile(CPUSET.resolve("cpuset.cpus")),
                "no cgroup v1 cpuset hierarchy at " + CPUSET + " (the v2 layout is covered on a temporary tree)");
        Assumptions.assumeTrue(isRoot(), "not root: creating cgroups and moving processes needs root");
        CpuSet cpus = CpuSet.parse(Files.readString(CPUSET.resolve("cpuset.effective_cpus")));
        CpuSet mems = CpuSet.parse(Files.readString(CPUSET.resolve("cpuset.effective_mems")));
        Path root = CPUSET.resolve("podnuma-it-" + HexFormat.of().toHexDigits(new Random().nextInt()));
        KubeletLikeHost host = new KubeletLikeHost(
                root, new CgroupLayout(CgroupVersion.V1, root, root, new CgroupNaming(driver)), cpus, mems);
        host.mkdir(root);
        host.mkdir(root.resolve(driver.kubepodsName()));
        return host;
    }

    public CgroupLayout layout() {
        return layout;
    }

    public Path root() {
        return root;
    }

    public CpuSet cpus() {
        return cpus;
    }

    /** Creates a container's cgroup (and its pod's, as needed) and starts a process in it; returns its pid. */
    public long startContainer(ContainerCgroup c) throws IOException {
        CgroupPath path = layout.naming().containerPath(c);
        Path dir = root;
        for (String segment : path.segments()) {
            dir = dir.resolve(segment);
            if (!Files.isDirectory(dir)) {
                mkdir(dir);
            }
        }
        Process p = new ProcessBuilder("sleep", "3600").start();
        processes.put(path, p);
        files.write(dir.resolve("cgroup.procs"), String.valueOf(p.pid()));
        return p.pid();
    }

    /** Ends a container: its process is killed and its cgroup removed, as the runtime does. */
    public void stopContainer(ContainerCgroup c) throws Exception {
        CgroupPath path = layout.naming().containerPath(c);
        Process p = processes.remove(path);
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        Path dir = path.in(root);
        for (int i = 0; i < 50 && Files.isDirectory(dir); i++) {
            try {
                Files.delete(dir);
            } catch (IOException e) {
                TimeUnit.MILLISECONDS.sleep(20); // the killed task leaves the cgroup asynchronously
            }
        }
    }

    public Path dir(ContainerCgroup c) {
        return layout.naming().containerPath(c).in(root);
    }

    public CpuSet cpusetOf(ContainerCgroup c) throws IOException {
        return CpuSet.parse(Files.readString(dir(c).resolve("cpuset.cpus")));
    }

    /** What the kernel lets a process run on ({@code Cpus_allowed_list} of {@code /proc/<pid>/status}). */
    public static CpuSet allowedCpus(long pid) throws IOException {
        return CpuSet.parse(status(pid, "Cpus_allowed_list"));
    }

    public static CpuSet allowedMems(long pid) throws IOException {
        return CpuSet.parse(status(pid, "Mems_allowed_list"));
    }

    private static String status(long pid, String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        throw new IOException("/proc/" + pid + "/status has no " + key);
    }

    private void mkdir(Path dir) throws IOException {
        Files.createDirectory(dir);
        // A v1 cpuset cgroup starts empty; both lists must be set before a task may join.
        files.write(dir.resolve("cpuset.mems"), mems.toString());
        files.write(dir.resolve("cpuset.cpus"), cpus.toString());
    }

    @Override
    public void close() throws Exception {
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
        processes.clear();
        removeTree(root);
    }

    /**
     * Removes a cgroup subtree bottom-up (a cgroup directory goes only when empty), waiting a little for killed
     * tasks, which leave their cgroup asynchronously.
     */
    public static void removeTree(Path root) throws IOException, InterruptedException {
        List<Path> dirs = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(Files::isDirectory).forEach(dirs::add);
            }
        }
        dirs.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path d : dirs) {
            for (int i = 0; i < 50; i++) {
                try {
                    Files.deleteIfExists(d);
                    break;
                } catch (IOException e) {
                    TimeUnit.MILLISECONDS.sleep(20);
                }
            }
        }
    }

    /** Whether this process runs as root (creating cgroups and moving processes needs it). */
    public static boolean isRoot() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                return line.substring(4).strip().split("\\s+")[1].equals("0");
            }
        }
        return false;
    }

    /** Every container cgroup under the kubepods tree, as the agent's start-up scan sees them (for tests). */
    public List<io.podnuma.agent.runtime.NodeAgent.Found> scan() throws IOException {
        List<io.podnuma.agent.runtime.NodeAgent.Found> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path d : s.filter(Files::isDirectory).toList()) {
                CgroupPath p = CgroupPath.relativize(root, d);
                layout.naming().parse(p).ifPresent(c -> out.add(new io.podnuma.agent.runtime.NodeAgent.Found(c, p)));
            }
        }
        return out;
    }
}
