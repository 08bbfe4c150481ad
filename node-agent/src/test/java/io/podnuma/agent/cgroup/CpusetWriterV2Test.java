package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.WritableCgroupFile.CPUSET_CPUS;
import static io.podnuma.agent.cgroup.WritableCgroupFile.CPUSET_MEMS;
import static io.podnuma.agent.cgroup.WritableCgroupFile.SUBTREE_CONTROL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodQos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The v2 write order on a temporary tree with the unified hierarchy's file layout. */
class CpusetWriterV2Test {

    private static final ContainerCgroup CONTAINER = new ContainerCgroup(
            PodQos.BURSTABLE,
            "0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b",
            ContainerId.parse("containerd://" + "d".repeat(64)));

    @TempDir
    Path root;

    private CgroupLayout layout;
    private CgroupPath container;
    private V2KernelFiles files;

    @BeforeEach
    void unifiedTreeWithoutCpusetDelegation() throws IOException {
        layout = new CgroupLayout(CgroupVersion.V2, root, root, new CgroupNaming(CgroupDriver.SYSTEMD));
        container = layout.naming().containerPath(CONTAINER);
        Files.writeString(root.resolve("cgroup.subtree_control"), "cpu memory\n");
        Files.writeString(root.resolve("cpuset.cpus.effective"), "0-3\n");
        Files.writeString(root.resolve("cpuset.mems.effective"), "0-1\n");
        CgroupPath p = CgroupPath.root();
        for (String s : container.segments()) {
            p = p.child(s);
            Files.createDirectories(p.in(root));
            Files.writeString(p.in(root).resolve("cgroup.subtree_control"), "\n");
            Files.writeString(p.in(root).resolve("cgroup.events"), "populated 1\nfrozen 0\n");
        }
        files = new V2KernelFiles(layout);
    }

    private Path dir(int depth) {
        return new CgroupPath(container.segments().subList(0, depth)).in(root);
    }

    @Test
    void enablesCpusetTopDownThenWritesTheContainer() throws Exception {
        List<CgroupWrite> done = new CpusetWriter(layout, files).apply(container, CpuSet.of(2, 3), CpuSet.of(1));

        assertThat(done)
                .containsExactly(
                        new CgroupWrite(root, SUBTREE_CONTROL, "+cpuset"),
                        new CgroupWrite(dir(1), SUBTREE_CONTROL, "+cpuset"),
                        new CgroupWrite(dir(2), SUBTREE_CONTROL, "+cpuset"),
                        new CgroupWrite(dir(3), SUBTREE_CONTROL, "+cpuset"),
                        new CgroupWrite(dir(4), CPUSET_CPUS, "2-3"),
                        new CgroupWrite(dir(4), CPUSET_MEMS, "1"));
        assertThat(files.writes).isEqualTo(done);
        assertThat(Files.readString(dir(4).resolve("cpuset.cpus.effective"))).isEqualTo("2-3\n");
        assertThat(new CpusetWriter(layout, files).apply(container, CpuSet.of(2, 3), CpuSet.of(1)))
                .isEmpty();
    }

    @Test
    void growsAConfiguredAncestorFirstAndShrinksAChildFirst() throws Exception {
        CpusetWriter writer = new CpusetWriter(layout, files);
        writer.apply(container, CpuSet.range(0, 1), CpuSet.of(0));
        files.write(new CgroupWrite(dir(1), CPUSET_CPUS, "0-1")); // kubepods.slice limited by someone
        Path inner = dir(4).resolve("inner");
        Files.createDirectories(inner);
        Files.writeString(inner.resolve("cpuset.cpus"), "0-1\n");
        Files.writeString(inner.resolve("cpuset.mems"), "\n");
        Files.writeString(inner.resolve("cgroup.events"), "populated 1\n");
        files.writes.clear();

        List<CgroupWrite> done = writer.apply(container, CpuSet.of(1, 2), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        new CgroupWrite(dir(1), CPUSET_CPUS, "0-2"),
                        new CgroupWrite(dir(4), CPUSET_CPUS, "0-2"),
                        new CgroupWrite(inner, CPUSET_CPUS, "1"),
                        new CgroupWrite(dir(4), CPUSET_CPUS, "1-2"));
    }

    /** Delegation in place and the parent's effective set holds the grow: the ancestors' lists are not read. */
    @Test
    void aGrowInsideTheParentsEffectiveSetReadsNoAncestorList() throws Exception {
        CpusetWriter writer = new CpusetWriter(layout, files);
        writer.apply(container, CpuSet.of(1), CpuSet.of(0));
        files.writes.clear();
        files.reads.clear();

        List<CgroupWrite> done = writer.apply(container, CpuSet.range(0, 3), CpuSet.of(0));

        assertThat(done).containsExactly(new CgroupWrite(dir(4), CPUSET_CPUS, "0-3"));
        assertThat(files.reads).contains(dir(3).resolve("cpuset.cpus.effective"));
        for (int depth = 1; depth <= 3; depth++) {
            assertThat(files.reads).doesNotContain(dir(depth).resolve("cpuset.cpus"));
        }
        assertThat(Files.readString(dir(4).resolve("cpuset.cpus.effective"))).isEqualTo("0-3\n");
    }

    @Test
    void refusesAnEmptySetForAPopulatedCgroup() throws Exception {
        CpusetWriter writer = new CpusetWriter(layout, files);
        writer.apply(container, CpuSet.of(1), CpuSet.of(0));
        files.writes.clear();

        assertThatThrownBy(() -> writer.apply(container, CpuSet.empty(), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("refusing to write an empty cpuset.cpus to " + dir(4));
        assertThat(files.writes).isEmpty();
    }

    @Test
    void aSilentClampIsReportedFromTheEffectiveList() {
        assertThatThrownBy(() -> new CpusetWriter(layout, files).apply(container, CpuSet.of(5), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("after writing \"5\" to " + dir(4).resolve("cpuset.cpus"))
                .hasMessageContaining("the kernel reports \"0-3\" in " + dir(4).resolve("cpuset.cpus.effective"));
    }
}
