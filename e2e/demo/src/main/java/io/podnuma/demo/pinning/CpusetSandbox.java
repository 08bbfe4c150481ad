package io.podnuma.demo.pinning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private subtree of this host's cgroup v1 cpuset hierarchy that plays the kubelet's cgroup root: pod and container
 * cgroups named as the kubelet (cgroupfs driver) and containerd name them, each container with a real process in it.
 * {@link #close()} kills the processes and removes the subtree.
 */
public final class CpusetSandbox implements AutoCloseable {

    private static final String KUBEPODS = "kubepods";

    private final Path root;
    private final CpuList cpus;
    private final Map<Path, Process> processes = new LinkedHashMap<>();

    private CpusetSandbox(Path root, CpuList cpus) {
        this.root = root;
        this.cpus = cpus;
    }

    /**
     * Creates {@code /sys/fs/cgroup/cpuset/<prefix>-<random>/kubepods}. Call only when {@link HostCheck#unavailable()}
     * is empty.
     */
    public static CpusetSandbox create(String prefix) throws IOException {
        Path cpuset = HostCheck.CPUSET_V1;
        CpuList cpus = CpuList.parse(Files.readString(cpuset.resolve("cpuset.effective_cpus")));
        String mems = Files.readString(cpuset.resolve("cpuset.effective_mems")).strip();
        Path root = cpuset.resolve(prefix + "-" + HexFormat.of().toHexDigits(new Random().nextInt()));
        Files.createDirectory(root);
        CpusetSandbox sandbox = new CpusetSandbox(root, cpus);
        try {
            // A new v1 cpuset starts empty and takes no task until both lists are set. With clone_children every
            // cgroup below is born with its parent's lists, so no write of ours can race the agent's.
            write(root.resolve("cpuset.mems"), mems);
            write(root.resolve("cpuset.cpus"), cpus.toString());
            write(root.resolve("cgroup.clone_children"), "1");
            Files.createDirectory(root.resolve(KUBEPODS));
        } catch (IOException | RuntimeException e) {
            sandbox.close();
            throw e;
        }
        return sandbox;
    }

    /** The subtree on the host. */
    public Path root() {
        return root;
    }

    /** The agent's {@code kubeletCgroupRoot}: the subtree as a path inside the hierarchy. */
    public String kubeletCgroupRoot() {
        return "/" + root.getFileName();
    }

    /** The CPUs this host gives the subtree (all of its CPUs, as under the kubelet's {@code none} CPU policy). */
    public CpuList cpus() {
        return cpus;
    }

    /**
     * Does what containerd does when the kubelet starts a container: creates the container's cgroup (and its pod's,
     * on first use) and runs a process in it. Here the process starts first and then moves in: the kernel applies
     * the cgroup's cpuset either way.
     *
     * @param qosClass the pod's {@code status.qosClass}
     * @param containerId the container's {@code containerID} from pod status, {@code containerd://<id>}
     * @return the process id
     */
    public synchronized long startContainer(String qosClass, String podUid, String containerId) throws IOException {
        Path dir = root.resolve(containerPath(qosClass, podUid, containerId));
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("sleep", "3600").start();
        processes.put(dir, p);
        write(dir.resolve("cgroup.procs"), Long.toString(p.pid()));
        return p.pid();
    }

    /** Every process this sandbox started. */
    public synchronized List<Long> pids() {
        return processes.values().stream().map(Process::pid).toList();
    }

    /**
     * The kubelet's cgroupfs layout with containerd's names: {@code kubepods/[burstable|besteffort/]pod<uid>/<id>}
     * (Guaranteed pods sit directly under kubepods).
     */
    static Path containerPath(String qosClass, String podUid, String containerId) {
        String prefix = "containerd://";
        if (containerId == null || !containerId.startsWith(prefix)) {
            throw new IllegalArgumentException("containerID \"" + containerId + "\" of pod " + podUid
                    + " is not a containerd ID (containerd://<64 hex digits>)");
        }
        Path pods = Path.of(KUBEPODS);
        switch (qosClass) {
            case "Guaranteed" -> {}
            case "Burstable", "BestEffort" -> pods = pods.resolve(qosClass.toLowerCase(Locale.ROOT));
            default ->
                throw new IllegalArgumentException("qosClass \"" + qosClass + "\" of pod " + podUid
                        + " is not one of Guaranteed, Burstable, BestEffort");
        }
        return pods.resolve("pod" + podUid).resolve(containerId.substring(prefix.length()));
    }

    @Override
    public synchronized void close() throws IOException {
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        try {
            for (Process p : processes.values()) {
                p.waitFor(10, TimeUnit.SECONDS);
            }
            processes.clear();
            removeTree();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while removing " + root, e);
        }
    }

    private void removeTree() throws IOException, InterruptedException {
        if (!Files.isDirectory(root)) {
            return;
        }
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(Files::isDirectory).forEach(dirs::add);
        }
        dirs.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path d : dirs) {
            // rmdir is the only way to remove a cgroup; a killed task leaves it a moment after it died.
            for (int attempt = 0; ; attempt++) {
                try {
                    Files.deleteIfExists(d);
                    break;
                } catch (IOException e) {
                    if (attempt == 100) {
                        throw new IOException("cannot remove cgroup " + d + ": " + e.getMessage(), e);
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
            }
        }
    }

    private static void write(Path file, String value) throws IOException {
        // cgroup files take one write(2) of the whole value; no truncation, no temp file.
        Files.writeString(file, value, java.nio.file.StandardOpenOption.WRITE);
    }
}
