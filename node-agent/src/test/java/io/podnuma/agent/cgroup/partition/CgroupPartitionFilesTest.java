package io.podnuma.agent.cgroup.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition files as the agent reads and writes them, on a directory tree laid out as the guest's 6.12 kernel
 * shows a cgroup v2 hierarchy (the kernel's own rules are {@link KernelPartitions}' and the guest journey's).
 */
class CgroupPartitionFilesTest {

    private static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");
    private static final CgroupPath POD = CgroupPath.parse("kubepods/pod-a");
    private static final CgroupPath CTR = CgroupPath.parse("kubepods/pod-a/ctr");

    @TempDir
    Path root;

    private CgroupPartitionFiles files;

    @BeforeEach
    void hierarchy() throws Exception {
        for (CgroupPath dir : new CgroupPath[] {KUBEPODS, POD, CTR, CgroupPath.parse("kubepods/burstable")}) {
            Path at = dir.in(root);
            Files.createDirectories(at);
            Files.writeString(at.resolve("cpuset.cpus.partition"), "member\n");
            Files.writeString(at.resolve("cpuset.cpus.exclusive"), "\n");
        }
        CgroupLayout layout = new CgroupLayout(CgroupVersion.V2, root, root, new CgroupNaming(CgroupDriver.CGROUPFS));
        files = new CgroupPartitionFiles(layout, new HostCgroupFiles(layout), "CapEff:\t0000000000200000\n");
    }

    @Test
    void aNodeWithTheExclusiveListsSupportsPartitions() {
        assertThat(files.support()).isEqualTo(new PartitionSupport.Supported());
    }

    @Test
    void writesGoToTheTwoFilesAndAreReadBack() throws Exception {
        assertThat(files.write(new PartitionStep.Exclusive(KUBEPODS, CpuSet.parse("6-7"))))
                .isTrue();
        assertThat(files.write(new PartitionStep.Exclusive(POD, CpuSet.parse("6-7"))))
                .isTrue();
        assertThat(files.write(new PartitionStep.Partition(POD, PartitionType.ISOLATED)))
                .isTrue();

        assertThat(Files.readString(POD.in(root).resolve("cpuset.cpus.partition")))
                .isEqualTo("isolated");
        assertThat(files.read(POD))
                .contains(new PartitionState(PartitionType.ISOLATED, Optional.empty(), CpuSet.parse("6-7")));
        assertThat(files.write(new PartitionStep.Exclusive(POD, CpuSet.empty())))
                .isTrue();
        assertThat(Files.readString(POD.in(root).resolve("cpuset.cpus.exclusive")))
                .as("an empty list is a lone newline")
                .isEqualTo("\n");
    }

    @Test
    void theKernelsInvalidPartitionIsReadWithItsReason() throws Exception {
        Files.writeString(
                CTR.in(root).resolve("cpuset.cpus.partition"), "root invalid (Parent is not a partition root)\n");
        Files.writeString(CTR.in(root).resolve("cpuset.cpus.exclusive"), "3\n");
        PartitionState state = files.read(CTR).orElseThrow();
        assertThat(state.type()).isEqualTo(PartitionType.ROOT);
        assertThat(state.invalid()).contains("Parent is not a partition root");
        assertThat(state.inForce()).isFalse();
    }

    @Test
    void aGoneCgroupIsNothingToReadOrWrite() throws Exception {
        CgroupPath gone = CgroupPath.parse("kubepods/pod-gone");
        assertThat(files.read(gone)).isEmpty();
        assertThat(files.write(new PartitionStep.Partition(gone, PartitionType.MEMBER)))
                .isFalse();
    }

    @Test
    void theScanFindsPartitionsAndTheListsAboveThem() throws Exception {
        Files.writeString(KUBEPODS.in(root).resolve("cpuset.cpus.exclusive"), "3,6-7\n");
        Files.writeString(POD.in(root).resolve("cpuset.cpus.exclusive"), "3\n");
        Files.writeString(CTR.in(root).resolve("cpuset.cpus.exclusive"), "3\n");
        Files.writeString(CTR.in(root).resolve("cpuset.cpus.partition"), "isolated\n");

        PartitionFiles.Found found = files.scan();
        assertThat(found.partitions())
                .isEqualTo(Map.of(CTR, new PartitionState(PartitionType.ISOLATED, Optional.empty(), CpuSet.of(3))));
        assertThat(found.ancestors()).isEqualTo(Map.of(KUBEPODS, CpuSet.parse("3,6-7"), POD, CpuSet.of(3)));
    }

    @Test
    void anythingElseInThePartitionFileIsAnErrorNamingIt() throws Exception {
        Files.writeString(POD.in(root).resolve("cpuset.cpus.partition"), "exclusive\n");
        assertThatThrownBy(() -> files.read(POD))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("cpuset.cpus.partition \"exclusive\": expected member, root or isolated");
    }
}
