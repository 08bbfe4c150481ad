package io.podnuma.testkit.host;

import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Iterator;
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
 * A private subtree of this machine's real cgroup v1 cpuset hierarchy, {@code
 * /sys/fs/cgroup/cpuset/podnuma-<purpose>-<pid of the owning JVM>-<8 hex digits>}, with all of the host's CPUs and
 * memory nodes, cgroups below it and real processes in them. {@link #close()} kills the processes and removes the
 * subtree; a subtree whose JVM is gone (a killed test run never closes) is removed, its processes killed, by the next
 * {@link #create}.
 */
public final class CpusetSubtree implements AutoCloseable {

    /** The host's cgroup v1 cpuset hierarchy. */
    public static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");

    private static final Pattern NAME = Pattern.compile("podnuma-[a-z0-9]+-(\\d+)-[0-9a-f]{8}");
    private static final Pattern PURPOSE = Pattern.compile("[a-z0-9]+");

    private final Path root;
    private final CpuList cpus;
    private final CpuList mems;
    private final Map<Path, List<Process>> processes = new LinkedHashMap<>();
    private final Deque<Process> prestarted = new ArrayDeque<>();

    private CpusetSubtree(Path root, CpuList cpus, CpuList mems) {
        this.root = root;
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

    /** For a test: skips the calling test (with the reason) when this machine cannot host one. */
    public static CpusetSubtree forTest() throws IOException {
        Optional<String> reason = unavailableReason();
        Assumptions.assumeTrue(
                reason.isEmpty(), () -> reason.orElse("") + " (the v2 layout is covered on a temporary tree)");
        return create("it");
    }

    /**
     * Creates a subtree, first removing those of test JVMs that are gone.
     *
     * @param purpose a lower-case word naming the user in the subtree's name ({@code it}, {@code bench}, {@code demo})
     * @throws IllegalStateException naming the reason when this machine cannot host one
     */
    public static CpusetSubtree create(String purpose) throws IOException {
        if (!PURPOSE.matcher(purpose).matches()) {
            throw new IllegalArgumentException("purpose \"" + purpose + "\": allowed lower-case letters and digits");
        }
        Optional<String> reason = unavailableReason();
        if (reason.isPresent()) {
            throw new IllegalStateException("no private cpuset subtree here: " + reason.get());
        }
        removeLeftovers();
        CpuList cpus = CpuList.parse(CgroupTrees.read(CPUSET.resolve("cpuset.effective_cpus")));
        CpuList mems = CpuList.parse(CgroupTrees.read(CPUSET.resolve("cpuset.effective_mems")));
        Path root = CPUSET.resolve("podnuma-" + purpose + "-"
                + ProcessHandle.current().pid() + "-" + HexFormat.of().toHexDigits(new Random().nextInt()));
        CpusetSubtree subtree = new CpusetSubtree(root, cpus, mems);
        subtree.cgroup(root, cpus, mems);
        return subtree;
    }

    /**
     * Kills the tasks in, and removes, every subtree made for a JVM that no longer runs.
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
                Matcher m = NAME.matcher(d.getFileName().toString());
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

    public Path root() {
        return root;
    }

    /** All of the host's CPUs: what the subtree's root has. */
    public CpuList cpus() {
        return cpus;
    }

    /** All of the host's memory nodes: what the subtree's root has. */
    public CpuList mems() {
        return mems;
    }

    /**
     * From now on every cgroup made below is born with its parent's {@code cpuset.cpus} and {@code cpuset.mems}
     * ({@code cgroup.clone_children}), as runc leaves a new container cgroup: nothing is written after the
     * {@code mkdir} that could undo an agent's write.
     */
    public void inheritParentSets() throws IOException {
        CgroupTrees.write(root.resolve("cgroup.clone_children"), "1");
    }

    /** Creates the directories of {@code dir} (inside the subtree) that are missing; returns {@code dir}. */
    public Path mkdirs(Path dir) throws IOException {
        Path d = root;
        for (Path segment : inside(dir)) {
            d = d.resolve(segment);
            if (!Files.isDirectory(d)) {
                Files.createDirectory(d);
            }
        }
        return dir;
    }

    /**
     * Creates the cgroup {@code dir} (its parent must exist) with these lists. A v1 cpuset cgroup starts empty and
     * takes no task until both are set.
     */
    public Path cgroup(Path dir, CpuList cpus, CpuList mems) throws IOException {
        Files.createDirectory(dir);
        CgroupTrees.write(dir.resolve("cpuset.mems"), mems.toString());
        CgroupTrees.write(dir.resolve("cpuset.cpus"), cpus.toString());
        return dir;
    }

    /** Starts {@code n} idle processes that {@link #startProcessIn} moves in first, so a start forks nothing. */
    public synchronized void prestart(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            prestarted.add(sleeper());
        }
    }

    /**
     * Puts a process in the cgroup {@code dir} (a prestarted one if there is one): it starts first and then moves
     * in; the kernel applies the cgroup's cpuset either way.
     *
     * @return its pid
     */
    public synchronized long startProcessIn(Path dir) throws IOException {
        inside(dir);
        Process p = prestarted.isEmpty() ? sleeper() : prestarted.poll();
        processes.computeIfAbsent(dir, k -> new ArrayList<>()).add(p);
        CgroupTrees.write(dir.resolve("cgroup.procs"), Long.toString(p.pid()));
        return p.pid();
    }

    /** Kills the processes started in {@code dir} and removes it with everything below. */
    public synchronized void remove(Path dir) throws IOException, InterruptedException {
        inside(dir);
        for (Iterator<Map.Entry<Path, List<Process>>> it = processes.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Path, List<Process>> e = it.next();
            if (e.getKey().startsWith(dir)) {
                stop(e.getValue());
                it.remove();
            }
        }
        CgroupTrees.removeTree(dir);
    }

    /** Every process started in the subtree and still in its books. */
    public synchronized List<Long> pids() {
        return processes.values().stream()
                .flatMap(List::stream)
                .map(Process::pid)
                .toList();
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
        List<Process> all = new ArrayList<>(prestarted);
        processes.values().forEach(all::addAll);
        try {
            stop(all);
            processes.clear();
            prestarted.clear();
            CgroupTrees.removeTree(root);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while removing " + root, e);
        }
    }

    private Path inside(Path dir) {
        if (!dir.startsWith(root)) {
            throw new IllegalArgumentException(dir + " is not inside the subtree " + root);
        }
        return root.relativize(dir);
    }

    private static void stop(List<Process> ps) throws InterruptedException {
        ps.forEach(Process::destroyForcibly);
        for (Process p : ps) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Process sleeper() throws IOException {
        return new ProcessBuilder("sleep", "3600").start();
    }
}
