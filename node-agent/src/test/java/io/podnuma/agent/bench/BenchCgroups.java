package io.podnuma.agent.bench;

import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.hosttest.KubeletLikeHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A private subtree of this machine's cgroup v1 cpuset hierarchy standing in for the kubelet's cgroup root, where
 * container cgroups are made the way runc makes them: a container directory is created with its parent's
 * {@code cpuset.cpus}/{@code cpuset.mems} already in it ({@code cgroup.clone_children}, so nothing is written after
 * the {@code mkdir} that could undo the agent's write), then a process joins it.
 *
 * <p>The processes are started ahead ({@link #prestart}) so that forking one is not counted in a start.
 */
public final class BenchCgroups implements AutoCloseable {

    public static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");

    private final HostCgroupFiles files = new HostCgroupFiles();
    private final Path root;
    private final CgroupNaming naming;
    private final CpuSet cpus;
    private final CpuSet mems;
    private final Deque<Process> idle = new ArrayDeque<>();
    private final List<Process> all = new ArrayList<>();

    private BenchCgroups(Path root, CgroupNaming naming, CpuSet cpus, CpuSet mems) {
        this.root = root;
        this.naming = naming;
        this.cpus = cpus;
        this.mems = mems;
    }

    /** Why this machine cannot host the bench (not root, no v1 cpuset hierarchy, one CPU), or null if it can. */
    public static String unavailableReason() throws IOException {
        if (!Files.isRegularFile(CPUSET.resolve("cpuset.cpus"))) {
            return "no cgroup v1 cpuset hierarchy at " + CPUSET;
        }
        if (!KubeletLikeHost.isRoot()) {
            return "not root: creating cgroups and moving processes needs root";
        }
        CpuSet cpus = CpuSet.parse(Files.readString(CPUSET.resolve("cpuset.effective_cpus")));
        if (cpus.size() < 2) {
            return "one CPU (" + cpus + "): a pinned pod needs one CPU and the reserved pool another";
        }
        return null;
    }

    public static BenchCgroups create(CgroupNaming naming) throws IOException {
        String reason = unavailableReason();
        if (reason != null) {
            throw new IllegalStateException("the agent bench cannot run here: " + reason);
        }
        CpuSet cpus = CpuSet.parse(Files.readString(CPUSET.resolve("cpuset.effective_cpus")));
        CpuSet mems = CpuSet.parse(Files.readString(CPUSET.resolve("cpuset.effective_mems")));
        Path root = CPUSET.resolve("podnuma-bench-" + HexFormat.of().toHexDigits(new Random().nextInt()));
        BenchCgroups c = new BenchCgroups(root, naming, cpus, mems);
        Files.createDirectory(root);
        c.files.write(root.resolve("cpuset.mems"), mems.toString());
        c.files.write(root.resolve("cpuset.cpus"), cpus.toString());
        // Inherited by every directory below: each new cgroup starts with its parent's sets.
        c.files.write(root.resolve("cgroup.clone_children"), "1");
        Files.createDirectory(root.resolve(naming.driver().kubepodsName()));
        return c;
    }

    public Path root() {
        return root;
    }

    public CpuSet cpus() {
        return cpus;
    }

    public CpuSet mems() {
        return mems;
    }

    /** The pod's cgroup and its QoS parents, as the kubelet makes them when it admits the pod. */
    public void createPod(PodQos qos, String podUid) throws IOException {
        Path dir = root;
        for (String segment : naming.podPath(qos, podUid).segments()) {
            dir = dir.resolve(segment);
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir);
            }
        }
    }

    /** Starts {@code n} idle processes that {@link #startContainer} moves into new container cgroups. */
    public void prestart(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            Process p = new ProcessBuilder("sleep", "3600").start();
            idle.add(p);
            all.add(p);
        }
    }

    public Path dir(ContainerCgroup c) {
        return naming.containerPath(c).in(root);
    }

    public CgroupPath path(ContainerCgroup c) {
        return naming.containerPath(c);
    }

    /**
     * Creates the container's cgroup (its pod's must exist) and moves a prestarted process into it; returns at once,
     * the agent works meanwhile.
     */
    public void startContainer(ContainerCgroup c) throws IOException {
        Path dir = dir(c);
        Files.createDirectory(dir);
        Process p = idle.poll();
        if (p != null) {
            files.write(dir.resolve("cgroup.procs"), String.valueOf(p.pid()));
        }
    }

    public CpuSet cpusetOf(ContainerCgroup c) throws IOException {
        return CpuSet.parse(files.read(dir(c).resolve("cpuset.cpus")));
    }

    /**
     * Polls the container's {@code cpuset.cpus} every {@code pollNanos} until it holds {@code wanted}.
     *
     * @return {@link System#nanoTime()} when it was seen to hold it, or -1 after {@code timeoutNanos}
     */
    public long awaitCpus(ContainerCgroup c, CpuSet wanted, long pollNanos, long timeoutNanos) throws IOException {
        Path file = dir(c).resolve("cpuset.cpus");
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            String text = files.read(file);
            long now = System.nanoTime();
            if (!text.isBlank() && CpuSet.parse(text).equals(wanted)) {
                return now;
            }
            if (now > deadline) {
                return -1;
            }
            LockSupport.parkNanos(pollNanos);
        }
    }

    /**
     * The bare cost of what the agent does for a new container: widens its {@code cpuset.cpus} to every CPU (as a
     * new cgroup starts), then times the one write of {@code wanted}. Only while no agent watches.
     */
    public long timeBareWrite(ContainerCgroup c, CpuSet wanted) throws IOException {
        Path file = dir(c).resolve("cpuset.cpus");
        files.write(file, cpus.toString());
        String value = wanted.toString();
        long t0 = System.nanoTime();
        files.write(file, value);
        return System.nanoTime() - t0;
    }

    @Override
    public void close() throws Exception {
        for (Process p : all) {
            p.destroyForcibly();
        }
        for (Process p : all) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
        all.clear();
        idle.clear();
        KubeletLikeHost.removeTree(root);
    }
}
