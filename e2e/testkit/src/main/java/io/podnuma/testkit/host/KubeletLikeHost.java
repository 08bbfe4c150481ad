package io.podnuma.testkit.host;

import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A private cgroup v1 cpuset subtree ({@link CpusetSubtree}) that plays the kubelet's cgroup root: pod and container
 * cgroups named as the kubelet and containerd name them ({@link KubeletCgroupNames}, written apart from the agent's
 * naming so that it is an oracle), each container with a real process in it.
 *
 * <p>Every cgroup is born with its parent's {@code cpuset.cpus} and {@code cpuset.mems}, as runc leaves a new
 * container cgroup: all of the host's CPUs and memory nodes, as under the kubelet's {@code cpuManagerPolicy: none}.
 * {@link #close()} kills the processes and removes the subtree, and the subtree of a killed run goes at the next
 * {@link #create}.
 */
public final class KubeletLikeHost implements AutoCloseable {

    /** The host's cgroup v1 cpuset hierarchy. */
    public static final Path CPUSET = CpusetSubtree.CPUSET;

    private final CpusetSubtree subtree;
    private final CgroupDriverName driver;

    private KubeletLikeHost(CpusetSubtree subtree, CgroupDriverName driver) {
        this.subtree = subtree;
        this.driver = driver;
    }

    /** Why this machine cannot host one (no cgroup v1 cpuset hierarchy, not root), or empty when it can. */
    public static Optional<String> unavailableReason() throws IOException {
        return CpusetSubtree.unavailableReason();
    }

    /** For a test: skips the calling test (with the reason) when this machine cannot host one. */
    public static KubeletLikeHost create(CgroupDriverName driver) throws IOException {
        Optional<String> reason = unavailableReason();
        Assumptions.assumeTrue(
                reason.isEmpty(), () -> reason.orElse("") + " (the v2 layout is covered on a temporary tree)");
        return create(driver, "it");
    }

    /**
     * Creates {@code /sys/fs/cgroup/cpuset/podnuma-<purpose>-<pid>-<random>/<kubepods>}.
     *
     * @param purpose a lower-case word naming the user in the subtree's name ({@code it}, {@code bench}, {@code demo})
     * @throws IllegalStateException naming the reason when this machine cannot host one
     */
    public static KubeletLikeHost create(CgroupDriverName driver, String purpose) throws IOException {
        CpusetSubtree subtree = CpusetSubtree.create(purpose);
        try {
            subtree.inheritParentSets();
            Files.createDirectory(subtree.root().resolve(KubeletCgroupNames.kubepods(driver)));
        } catch (IOException | RuntimeException e) {
            subtree.close();
            throw e;
        }
        return new KubeletLikeHost(subtree, driver);
    }

    /** The subtree on the host. */
    public Path root() {
        return subtree.root();
    }

    /** The agent's {@code kubeletCgroupRoot}: the subtree as a path inside the hierarchy. */
    public String kubeletCgroupRoot() {
        return "/" + root().getFileName();
    }

    public CgroupDriverName driver() {
        return driver;
    }

    /** The CPUs this host gives the subtree (all of its CPUs, as under the kubelet's {@code none} CPU policy). */
    public CpuList cpus() {
        return subtree.cpus();
    }

    /** The memory nodes this host gives the subtree. */
    public CpuList mems() {
        return subtree.mems();
    }

    /** The container's cgroup directory relative to {@link #root()}. */
    public Path path(PodContainer c) {
        return KubeletCgroupNames.container(driver, c);
    }

    /** The container's cgroup directory on the host. */
    public Path dir(PodContainer c) {
        return root().resolve(path(c));
    }

    /** The pod's cgroup and its QoS parents, as the kubelet makes them when it admits the pod. */
    public void createPod(QosClass qos, String podUid) throws IOException {
        subtree.mkdirs(root().resolve(KubeletCgroupNames.pod(driver, qos, podUid)));
    }

    /** Starts {@code n} idle processes that {@link #startContainer} moves in first, so a start forks nothing. */
    public void prestart(int n) throws IOException {
        subtree.prestart(n);
    }

    /**
     * Does what containerd does when the kubelet starts a container: creates the container's cgroup (and its pod's,
     * on first use) and puts a process in it (a prestarted one if there is one).
     *
     * @return the process id
     */
    public long startContainer(PodContainer c) throws IOException {
        return subtree.startProcessIn(subtree.mkdirs(dir(c)));
    }

    /** Ends a container: its process is killed and its cgroup removed, as the runtime does. */
    public void stopContainer(PodContainer c) throws IOException, InterruptedException {
        subtree.remove(dir(c));
    }

    /** Every process of a started container. */
    public List<Long> pids() {
        return subtree.pids();
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
        return CgroupTrees.directories(root()).stream()
                .filter(d -> !d.equals(root()))
                .map(root()::relativize)
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

    @Override
    public void close() throws IOException {
        subtree.close();
    }
}
