package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.testing.CpuLists;
import io.podnuma.agent.testing.Seeds;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.host.CgroupTrees;
import io.podnuma.testkit.host.CpusetSubtree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cpuset writer against this host's real cgroup v1 cpuset hierarchy: a private subtree
 * ({@code /sys/fs/cgroup/cpuset/podnuma-it-<random>}) laid out as the kubelet and the runtime would,
 * real {@code sleep} processes in the container cgroups, and the kernel's own view of them
 * ({@code Cpus_allowed_list}, {@code Mems_allowed_list}). Designed for the smallest machine: 2 CPUs
 * and one memory node. Needs root; skips with the reason otherwise.
 */
class CgroupCpusetIT {

    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
    private static final Path CPUSET = CGROUP_ROOT.resolve("cpuset");

    private HostCgroupFiles files;
    private final List<Process> processes = new ArrayList<>();
    private final Random random = new Random();
    private CpusetSubtree subtree;
    private Path testRoot;
    private Path cpuTestRoot;
    private CpuSet hostCpus;
    private CpuSet hostMems;

    @BeforeEach
    void privateSubtree() throws IOException {
        // Skips without a v1 cpuset hierarchy (the v2 writer is covered by CpusetWriterV2Test) or root.
        subtree = CpusetSubtree.forTest();
        hostCpus = CpuLists.toCpuSet(subtree.cpus());
        hostMems = CpuLists.toCpuSet(subtree.mems());
        Assumptions.assumeTrue(
                hostCpus.contains(0) && hostCpus.contains(1), "needs CPUs 0 and 1, host has " + hostCpus);
        testRoot = subtree.root();
        files = new HostCgroupFiles(
                new CgroupLayout(CgroupVersion.V1, testRoot, testRoot, new CgroupNaming(CgroupDriver.CGROUPFS)));
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        if (subtree != null) {
            subtree.close();
        }
        if (cpuTestRoot != null) {
            CgroupTrees.removeTree(cpuTestRoot);
        }
    }

    /** The kubelet's and runtime's directories for one container of a Burstable pod, plus a sibling container. */
    private record Pod(
            CgroupLayout layout, CgroupPath container, CgroupPath sibling, Path containerDir, Path siblingDir) {}

    private Pod kubeletTree(CgroupDriver driver) throws IOException {
        CgroupLayout layout = new CgroupLayout(CgroupVersion.V1, testRoot, testRoot, new CgroupNaming(driver));
        String uid = UUID.randomUUID().toString();
        ContainerCgroup c =
                new ContainerCgroup(PodQos.BURSTABLE, uid, new ContainerId(ContainerRuntime.CONTAINERD, hex64()));
        ContainerCgroup s = new ContainerCgroup(PodQos.BURSTABLE, uid, new ContainerId(ContainerRuntime.CRIO, hex64()));
        CgroupPath container = layout.naming().containerPath(c);
        CgroupPath sibling = layout.naming().containerPath(s);
        // The kubelet (cpuManagerPolicy none) gives every level all CPUs and memory nodes.
        CgroupPath p = CgroupPath.root();
        for (String segment : container.parent().segments()) {
            p = p.child(segment);
            cgroup(p.in(testRoot), hostCpus, hostMems);
        }
        cgroup(container.in(testRoot), CpuSet.of(0, 1), CpuSet.of(0));
        cgroup(sibling.in(testRoot), CpuSet.of(0), CpuSet.of(0));
        assertThat(layout.naming().parse(CgroupPath.relativize(testRoot, container.in(testRoot))))
                .contains(c);
        assertThat(layout.naming().parse(CgroupPath.relativize(testRoot, sibling.in(testRoot))))
                .contains(s);
        return new Pod(layout, container, sibling, container.in(testRoot), sibling.in(testRoot));
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void movesARealProcessBetweenCpusWhileASiblingHoldsCpu0(CgroupDriver driver) throws Exception {
        Pod pod = kubeletTree(driver);
        long pid = startIn(pod.containerDir());
        long siblingPid = startIn(pod.siblingDir());
        CpusetWriter writer = new CpusetWriter(pod.layout(), files);
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("0-1");

        for (CpuSet wanted : List.of(CpuSet.of(1), CpuSet.of(0), CpuSet.of(0, 1), CpuSet.of(1))) {
            List<CgroupWrite> done = writer.apply(pod.container(), wanted, CpuSet.of(0));
            assertThat(done).as("writes for " + wanted).isNotEmpty();
            assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo(wanted.toString());
            assertThat(allowed(pid, "Mems_allowed_list")).isEqualTo("0");
            assertThat(writer.apply(pod.container(), wanted, CpuSet.of(0)))
                    .as("second apply")
                    .isEmpty();
        }
        assertThat(allowed(siblingPid, "Cpus_allowed_list")).isEqualTo("0");
    }

    /** The shared pool widening again: the pod cgroup holds every CPU, so the one write is the container's. */
    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void aGrowInsideThePodCgroupIsOneWriteOnTheRealKernel(CgroupDriver driver) throws Exception {
        Pod pod = kubeletTree(driver);
        long pid = startIn(pod.containerDir());
        writeCpus(pod.containerDir(), "1");
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("1");

        List<CgroupWrite> done =
                new CpusetWriter(pod.layout(), files).apply(pod.container(), CpuSet.of(0, 1), CpuSet.of(0));

        assertThat(done).containsExactly(new CgroupWrite(pod.containerDir(), WritableCgroupFile.CPUSET_CPUS, "0-1"));
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("0-1");
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void growsAnAncestorTheKernelWouldOtherwiseRefuse(CgroupDriver driver) throws Exception {
        Pod pod = kubeletTree(driver);
        long pid = startIn(pod.containerDir());
        Path podDir = pod.containerDir().getParent();
        writeCpus(pod.containerDir(), "0");
        writeCpus(podDir, "0"); // a pod cgroup limited to CPU 0
        assertThatThrownBy(() -> writeCpus(pod.containerDir(), "1"))
                .as("the kernel refuses a child outside its parent")
                .isInstanceOf(IOException.class);

        List<CgroupWrite> done =
                new CpusetWriter(pod.layout(), files).apply(pod.container(), CpuSet.of(1), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        new CgroupWrite(podDir, WritableCgroupFile.CPUSET_CPUS, "0-1"),
                        new CgroupWrite(pod.containerDir(), WritableCgroupFile.CPUSET_CPUS, "0-1"),
                        new CgroupWrite(pod.containerDir(), WritableCgroupFile.CPUSET_CPUS, "1"));
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("1");
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void shrinksAPopulatedChildCgroupFirst(CgroupDriver driver) throws Exception {
        Pod pod = kubeletTree(driver);
        Path inner = pod.containerDir().resolve("inner");
        cgroup(inner, CpuSet.of(0, 1), CpuSet.of(0));
        long innerPid = startIn(inner);
        long pid = startIn(pod.containerDir());

        List<CgroupWrite> done =
                new CpusetWriter(pod.layout(), files).apply(pod.container(), CpuSet.of(1), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        new CgroupWrite(inner, WritableCgroupFile.CPUSET_CPUS, "1"),
                        new CgroupWrite(pod.containerDir(), WritableCgroupFile.CPUSET_CPUS, "1"));
        assertThat(allowed(innerPid, "Cpus_allowed_list")).isEqualTo("1");
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("1");
    }

    @Test
    void emptiesAnUnpopulatedChildThatKeepsNoneOfTheNewCpus() throws Exception {
        Pod pod = kubeletTree(CgroupDriver.CGROUPFS);
        Path idle = pod.containerDir().resolve("idle");
        cgroup(idle, CpuSet.of(0), CpuSet.of(0));
        long pid = startIn(pod.containerDir());

        List<CgroupWrite> done =
                new CpusetWriter(pod.layout(), files).apply(pod.container(), CpuSet.of(1), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        new CgroupWrite(idle, WritableCgroupFile.CPUSET_CPUS, ""),
                        new CgroupWrite(pod.containerDir(), WritableCgroupFile.CPUSET_CPUS, "1"));
        assertThat(cpus(idle)).isEqualTo(CpuSet.empty());
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("1");
    }

    /**
     * Random moves of two containers (one with a populated child cgroup) on the real kernel, with the
     * pod cgroup tightened now and then so ancestors must grow: the kernel never refuses a planned
     * write, every process ends where it should, a repeat writes nothing.
     */
    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void randomMovesOnTheRealKernel(CgroupDriver driver) throws Exception {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Pod pod = kubeletTree(driver);
        Path podDir = pod.containerDir().getParent();
        Path inner = pod.containerDir().resolve("inner");
        cgroup(inner, CpuSet.of(0, 1), CpuSet.of(0));
        long innerPid = startIn(inner);
        long pid = startIn(pod.containerDir());
        long siblingPid = startIn(pod.siblingDir());
        CpusetWriter writer = new CpusetWriter(pod.layout(), files);
        List<CpuSet> choices = List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(0, 1));
        int writes = 0;
        int refused = 0;
        for (int step = 0; step < 40; step++) {
            String where = "seed " + seed + " step " + step;
            if (rnd.nextInt(4) == 0) {
                CpuSet tight = cpus(pod.containerDir()).union(cpus(pod.siblingDir()));
                writeCpus(podDir, tight.toString());
            }
            boolean first = rnd.nextBoolean();
            CgroupPath target = first ? pod.container() : pod.sibling();
            CpuSet wanted = choices.get(rnd.nextInt(choices.size()));
            CpuSet innerBefore = cpus(inner);
            if (first && !innerBefore.intersects(wanted)) {
                // The populated child would be left without CPUs: refused, nothing changes.
                CpuSet before = cpus(pod.containerDir());
                assertThatThrownBy(() -> writer.apply(target, wanted, CpuSet.of(0)))
                        .as(where)
                        .hasMessageContaining("refusing to write an empty cpuset.cpus to " + inner);
                assertThat(cpus(pod.containerDir())).as(where).isEqualTo(before);
                assertThat(cpus(inner)).as(where).isEqualTo(innerBefore);
                refused++;
                writeCpus(inner, before.toString()); // the workload widens it again
                continue;
            }

            writes += writer.apply(target, wanted, CpuSet.of(0)).size();

            assertThat(allowed(first ? pid : siblingPid, "Cpus_allowed_list"))
                    .as(where)
                    .isEqualTo(wanted.toString());
            if (first) {
                CpuSet expectedInner = innerBefore.isSubsetOf(wanted) ? innerBefore : innerBefore.intersection(wanted);
                assertThat(allowed(innerPid, "Cpus_allowed_list")).as(where).isEqualTo(expectedInner.toString());
            }
            assertThat(writer.apply(target, wanted, CpuSet.of(0)))
                    .as(where + " repeat")
                    .isEmpty();
        }
        System.out.println("randomMovesOnTheRealKernel seed " + seed + " (" + driver + "): 40 moves, " + writes
                + " writes, " + refused + " refused");
    }

    @Test
    void refusesToEmptyAPopulatedContainerAndChangesNothing() throws Exception {
        Pod pod = kubeletTree(CgroupDriver.CGROUPFS);
        long pid = startIn(pod.containerDir());

        assertThatThrownBy(() ->
                        new CpusetWriter(pod.layout(), files).apply(pod.container(), CpuSet.of(1), CpuSet.empty()))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("refusing to write an empty cpuset.mems to " + pod.containerDir());
        assertThat(allowed(pid, "Cpus_allowed_list")).isEqualTo("0-1");
        assertThat(Files.readString(pod.containerDir().resolve("cpuset.cpus")).strip())
                .isEqualTo("0-1");
    }

    @Test
    void aKernelRefusalNamesThePathTheValueAndTheKernelText() throws Exception {
        Pod pod = kubeletTree(CgroupDriver.SYSTEMD);
        startIn(pod.containerDir());
        int absent = hostCpus.last() + 1; // a CPU this machine does not have

        assertThatThrownBy(() -> new CpusetWriter(pod.layout(), files)
                        .apply(pod.container(), CpuSet.of(0, absent), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .satisfies(e -> {
                    Path kubepods = testRoot.resolve("kubepods.slice").resolve("cpuset.cpus");
                    assertThat(((CgroupWriteException) e).path()).isEqualTo(kubepods);
                    assertThat(e.getMessage())
                            .contains("writing \"" + hostCpus.union(CpuSet.of(absent)) + "\" to " + kubepods)
                            .contains(e.getCause().getMessage());
                    System.out.println("kernel refusal as reported: " + e.getMessage());
                });
    }

    @Test
    void removesTheCfsQuotaOfARealCgroup() throws Exception {
        Path cpu = CGROUP_ROOT.resolve("cpu");
        Assumptions.assumeTrue(
                Files.isRegularFile(cpu.resolve("cpu.cfs_quota_us")),
                "no v1 cpu hierarchy with CFS bandwidth at " + cpu);
        CgroupNaming naming = new CgroupNaming(CgroupDriver.CGROUPFS);
        CgroupPath container = naming.containerPath(new ContainerCgroup(
                PodQos.GUARANTEED,
                UUID.randomUUID().toString(),
                new ContainerId(ContainerRuntime.CONTAINERD, hex64())));
        // A private subtree of the cpu hierarchy stands in for its root, as testRoot does for cpuset.
        cpuTestRoot = cpu.resolve(testRoot.getFileName().toString());
        Files.createDirectory(cpuTestRoot);
        CgroupLayout layout = new CgroupLayout(CgroupVersion.V1, testRoot, cpuTestRoot, naming);
        Path dir = cpuTestRoot;
        for (String segment : container.segments()) {
            dir = dir.resolve(segment);
            Files.createDirectory(dir);
        }
        // The kubelet's and the runtime's part: writes the agent's files cannot make.
        Files.writeString(dir.resolve("cpu.cfs_quota_us"), "50000"); // half a CPU, as for a 500m limit
        Process p = new ProcessBuilder("sleep", "600").start();
        processes.add(p);
        Files.writeString(dir.resolve("cgroup.procs"), String.valueOf(p.pid()));
        // Files confined to the cpuset test tree refuse the cpu hierarchy's file, and it keeps its quota.
        assertThatThrownBy(() -> new CpuQuotaWriter(layout, files).removeQuota(container))
                .isInstanceOf(CgroupWriteException.class)
                .hasCauseInstanceOf(CgroupWriteRefusedException.class)
                .hasMessageContaining("the agent writes cpu.cfs_quota_us only to a file of that name inside the"
                        + " cgroup hierarchy " + testRoot);
        assertThat(Files.readString(dir.resolve("cpu.cfs_quota_us")).strip()).isEqualTo("50000");
        CpuQuotaWriter writer = new CpuQuotaWriter(layout, new HostCgroupFiles(layout));

        assertThat(writer.removeQuota(container))
                .contains(new CgroupWrite(dir, WritableCgroupFile.CPU_CFS_QUOTA_US, "-1"));
        assertThat(Files.readString(dir.resolve("cpu.cfs_quota_us")).strip()).isEqualTo("-1");
        assertThat(writer.removeQuota(container)).isEmpty();
    }

    @Test
    void listsTheChildCgroupsOfARealCgroupAndNoneOfItsControlFiles() throws Exception {
        Path leaf = testRoot.resolve("leaf");
        cgroup(leaf, hostCpus, hostMems);
        assertThat(files.childDirectories(leaf))
                .as("a cgroup without children (link count 2)")
                .isEmpty();
        Path child = leaf.resolve("child");
        cgroup(child, hostCpus, hostMems);
        assertThat(files.childDirectories(leaf)).containsExactly(child);
        assertThat(files.childDirectories(testRoot)).containsExactly(leaf);
    }

    @Test
    void detectsThisHost() throws Exception {
        CgroupLayout l = new CgroupDetector(CGROUP_ROOT)
                .detect(Files.readString(Path.of("/proc/self/mountinfo")), Optional.of(CgroupDriver.CGROUPFS));
        assertThat(l.version()).isEqualTo(CgroupVersion.V1);
        assertThat(l.cpusetRoot()).isEqualTo(CPUSET);
    }

    private void writeCpus(Path dir, String cpus) throws IOException {
        files.write(new CgroupWrite(dir, WritableCgroupFile.CPUSET_CPUS, cpus));
    }

    private void cgroup(Path dir, CpuSet cpus, CpuSet mems) throws IOException {
        subtree.cgroup(dir, CpuLists.of(cpus), CpuLists.of(mems));
    }

    private static CpuSet cpus(Path dir) throws IOException {
        return CpuSet.parse(Files.readString(dir.resolve("cpuset.cpus")));
    }

    private long startIn(Path dir) throws IOException {
        return subtree.startProcessIn(dir);
    }

    /** {@code Cpus_allowed_list} or {@code Mems_allowed_list} of the process, as the kernel prints it. */
    private static String allowed(long pid, String key) throws IOException {
        ProcessAffinity affinity = ProcessAffinity.of(pid);
        return switch (key) {
            case "Cpus_allowed_list" -> affinity.cpus().toString();
            case "Mems_allowed_list" -> affinity.mems().toString();
            default -> throw new IllegalArgumentException(key);
        };
    }

    private String hex64() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            b.append(HexFormat.of().toHexDigits(random.nextInt()));
        }
        return b.toString();
    }
}
