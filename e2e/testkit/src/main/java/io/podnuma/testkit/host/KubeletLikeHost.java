package io.podnuma.testkit.host;

import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A private subtree of this machine's real cgroup v1 cpuset hierarchy that plays the kubelet's cgroup root: pod and
 * container cgroups named as the kubelet and containerd name them ({@link KubeletCgroupNames}, written apart from
 * the agent's naming so that it is an oracle), each container with a real process in it.
 *
 * <p>Every cgroup is born with its parent's {@code cpuset.cpus} and {@code cpuset.mems}
 * ({@code cgroup.clone_children}, as runc leaves a new container cgroup): all of the host's CPUs and memory nodes,
 * as under the kubelet's {@code cpuManagerPolicy: none}, and nothing is written after the {@code mkdir} that could
 * undo an agent's write. {@link #close()} kills the processes and removes the subtree; a subtree left by a test JVM
 * that was killed is removed by the next {@link #create}.
 */
public final class KubeletLikeHost implements AutoCloseable {

    /** The host's cgroup v1 cpuset hierarchy. */
    public static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");

    /** {@code podnuma-<purpose>-<pid of the owning JVM>-<8 hex digits>}. */
    private static final Pattern SUBTREE = Pattern.compile("podnuma-[a-z0-9]+-(\\d+)-[0-9a-f]{8}");

    private static final Pattern PURPOSE = Pattern.compile("[a-z0-9]+");

    private final Path root;
    private final CgroupDriverName driver;
    private final CpuList cpus;
    private final CpuList mems;
    private final Map<Path, Process> processes = new LinkedHashMap<>();
    private final Deque<Process> prestarted = new ArrayDeque<>();

    private KubeletLikeHost(Path root, CgroupDriverName driver, CpuList cpus, CpuList mems) {
        this.root = root;
        this.driver = driver;
        this.cpus = cpus;
        this.mems = mems;
    }

    /** Why this machine cannot host one (no cgroup v1 cpuset hierarchy, not root), or empty when it can. */
    public static Optional<String> unavailableReason() throws IOException {
        if (!Files.isRegularFile(CPUSET.resolve("cpuset.cpus"))) {
            return Optional.of("no cgroup v1 cpuset hierarchy at " + CPUSET);
        }
        if (!isRoot()) {
            return Optional.of("not root: creating cgroups and moving processes needs root");
        }
        return Optional.empty();
    }

    /**
     * For a test: skips the calling test (with the reason) when this machine cannot host one, else creates
     * {@code /sys/fs/cgroup/cpuset/podnuma-it-<pid>-<random>/<kubepods>}.
     */
    public static KubeletLikeHost create(CgroupDriverName driver) throws IOException {
        Optional<String> reason = unavailableReason();
        Assumptions.assumeTrue(
                reason.isEmpty(), () -> reason.orElse("") + " (the v2 layout is covered on a temporary tree)");
        return create(driver, "it");
    }

    /**
     * Creates {@code /sys/fs/cgroup/cpuset/podnuma-<purpose>-<pid>-<random>/<kubepods>}, first removing the subtrees
     * (and killing the processes) of test JVMs that are gone.
     *
     * @param purpose a lower-case word naming the user in the subtree's name ({@code it}, {@code bench}, {@code demo})
     * @throws IllegalStateException naming the reason when this machine cannot host one
     */
    public static KubeletLikeHost create(CgroupDriverName driver, String purpose) throws IOException {
        if (!PURPOSE.matcher(purpose).matches()) {
            throw new IllegalArgumentException("purpose \"" + purpose + "\": allowed lower-case letters and digits");
        }
        Optional<String> reason = unavailableReason();
        if (reason.isPresent()) {
            throw new IllegalStateException("no kubelet-like cgroup host here: " + reason.get());
        }
        removeLeftovers();
        CpuList cpus = CpuList.parse(CgroupTrees.read(CPUSET.resolve("cpuset.effective_cpus")));
        CpuList mems = CpuList.parse(CgroupTrees.read(CPUSET.resolve("cpuset.effective_mems")));
        Path root = CPUSET.resolve("podnuma-" + purpose + "-"
                + ProcessHandle.current().pid() + "-" + HexFormat.of().toHexDigits(new Random().nextInt()));
        Files.createDirectory(root);
        KubeletLikeHost host = new KubeletLikeHost(root, driver, cpus, mems);
        try {
            // A new v1 cpuset starts empty and takes no task until both lists are set; with clone_children every
            // cgroup below is born with its parent's lists.
            CgroupTrees.write(root.resolve("cpuset.mems"), mems.toString());
            CgroupTrees.write(root.resolve("cpuset.cpus"), cpus.toString());
            CgroupTrees.write(root.resolve("cgroup.clone_children"), "1");
            Files.createDirectory(root.resolve(KubeletCgroupNames.kubepods(driver)));
        } catch (IOException | RuntimeException e) {
            host.close();
            throw e;
        }
        return host;
    }

    /**
     * Kills the tasks in, and removes, every subtree {@link #create} made for a JVM that no longer runs (a killed
     * test run never reaches {@link #close()}).
     *
     * @return how many subtrees it removed
     */
    public static int removeLeftovers() throws IOException {
        if (!Files.isDirectory(CPUSET)) {
            return 0;
        }
        List<Path> stale = new ArrayList<>();
        try (Stream<Path> s = Files.list(CPUSET)) {
            for (Path d : s.filter(Files::isDirectory).toList()) {
                Matcher m = SUBTREE.matcher(d.getFileName().toString());
                if (m.matches()
                        && ProcessHandle.of(Long.parseLong(m.group(1)))
                                .map(p -> !p.isAlive())
                                .orElse(true)) {
                    stale.add(d);
                }
            }
        }
        for (Path d : stale) {
            for (long pid : CgroupTrees.tasks(d)) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            try {
                CgroupTrees.removeTree(d);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while removing " + d, e);
            }
        }
        return stale.size();
    }

    /** The subtree on the host. */
    public Path root() {
        return root;
    }

    /** The agent's {@code kubeletCgroupRoot}: the subtree as a path inside the hierarchy. */
    public String kubeletCgroupRoot() {
        return "/" + root.getFileName();
    }

    public CgroupDriverName driver() {
        return driver;
    }

    /** The CPUs this host gives the subtree (all of its CPUs, as under the kubelet's {@code none} CPU policy). */
    public CpuList cpus() {
        return cpus;
    }

    /** The memory nodes this host gives the subtree. */
    public CpuList mems() {
        return mems;
    }

    /** The container's cgroup directory relative to {@link #root()}. */
    public Path path(PodContainer c) {
        return KubeletCgroupNames.container(driver, c);
    }

    /** The container's cgroup directory on the host. */
    public Path dir(PodContainer c) {
        return root.resolve(path(c));
    }

    /** The pod's cgroup and its QoS parents, as the kubelet makes them when it admits the pod. */
    public synchronized void createPod(QosClass qos, String podUid) throws IOException {
        mkdirs(KubeletCgroupNames.pod(driver, qos, podUid));
    }

    /** Starts {@code n} idle processes that {@link #startContainer} moves in first, so a start forks nothing. */
    public synchronized void prestart(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            prestarted.add(sleeper());
        }
    }

    /**
     * Does what containerd does when the kubelet starts a container: creates the container's cgroup (and its pod's,
     * on first use) and puts a process in it (a prestarted one if there is one). The process is started before it
     * moves in: the kernel applies the cgroup's cpuset either way.
     *
     * @return the process id
     */
    public synchronized long startContainer(PodContainer c) throws IOException {
        Path relative = path(c);
        mkdirs(relative);
        Path dir = root.resolve(relative);
        Process p = prestarted.isEmpty() ? sleeper() : prestarted.poll();
        processes.put(relative, p);
        CgroupTrees.write(dir.resolve("cgroup.procs"), Long.toString(p.pid()));
        return p.pid();
    }

    /** Ends a container: its process is killed and its cgroup removed, as the runtime does. */
    public synchronized void stopContainer(PodContainer c) throws IOException, InterruptedException {
        Process p = processes.remove(path(c));
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        CgroupTrees.removeTree(dir(c));
    }

    /** The process of a started container. */
    public synchronized long pid(PodContainer c) {
        Process p = processes.get(path(c));
        if (p == null) {
            throw new IllegalArgumentException("no container " + c + " was started on this host");
        }
        return p.pid();
    }

    /** Every process of a started container. */
    public synchronized List<Long> pids() {
        return processes.values().stream().map(Process::pid).toList();
    }

    /** The container cgroup's {@code cpuset.cpus}. */
    public CpuList cpusetOf(PodContainer c) throws IOException {
        return CpuList.parse(CgroupTrees.read(dir(c).resolve("cpuset.cpus")));
    }

    /** The container cgroup's {@code cpuset.mems}. */
    public CpuList memsOf(PodContainer c) throws IOException {
        return CpuList.parse(CgroupTrees.read(dir(c).resolve("cpuset.mems")));
    }

    /** Every cgroup directory below the root, relative to it, parents first. */
    public List<Path> cgroupDirs() throws IOException {
        return CgroupTrees.directories(root).stream()
                .filter(d -> !d.equals(root))
                .map(root::relativize)
                .toList();
    }

    /** Every container cgroup below the root (named as containerd names one), relative to it. */
    public List<Path> containerDirs() throws IOException {
        return cgroupDirs().stream()
                .filter(d -> KubeletCgroupNames.isContainerName(
                        driver, d.getFileName().toString()))
                .toList();
    }

    /** What the kernel lets process {@code pid} run on ({@code Cpus_allowed_list}). */
    public static CpuList allowedCpus(long pid) throws IOException {
        return ProcessAffinity.allowedCpus(pid);
    }

    /** The memory nodes the kernel lets process {@code pid} use ({@code Mems_allowed_list}). */
    public static CpuList allowedMems(long pid) throws IOException {
        return ProcessAffinity.allowedMems(pid);
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

    @Override
    public synchronized void close() throws IOException {
        List<Process> all = new ArrayList<>(processes.values());
        all.addAll(prestarted);
        all.forEach(Process::destroyForcibly);
        try {
            for (Process p : all) {
                p.waitFor(10, TimeUnit.SECONDS);
            }
            processes.clear();
            prestarted.clear();
            CgroupTrees.removeTree(root);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while removing " + root, e);
        }
    }

    private void mkdirs(Path relative) throws IOException {
        Path dir = root;
        for (Path segment : relative) {
            dir = dir.resolve(segment);
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir);
            }
        }
    }

    private static Process sleeper() throws IOException {
        return new ProcessBuilder("sleep", "3600").start();
    }
}
