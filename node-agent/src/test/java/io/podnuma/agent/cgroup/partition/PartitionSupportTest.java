package io.podnuma.agent.cgroup.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What decides whether partitions can be made: the cgroup version and the kernel's {@code cpuset.cpus.exclusive}. */
class PartitionSupportTest {

    private static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");

    @TempDir
    Path root;

    @Test
    void cgroupV2WithExclusiveListsHasThem() throws Exception {
        Files.createDirectories(root.resolve("kubepods"));
        Files.writeString(root.resolve("kubepods/cpuset.cpus.exclusive"), "\n");
        assertThat(PartitionSupport.of(CgroupVersion.V2, root, KUBEPODS)).isEqualTo(new PartitionSupport.Supported());
    }

    @Test
    void anOlderKernelOrCgroupV1HasNot() throws Exception {
        Files.createDirectories(root.resolve("kubepods"));
        Files.writeString(root.resolve("kubepods/cpuset.cpus.partition"), "member\n");
        assertThat(PartitionSupport.of(CgroupVersion.V2, root, KUBEPODS))
                .isInstanceOfSatisfying(
                        PartitionSupport.Unsupported.class,
                        u -> assertThat(u.reason())
                                .startsWith("the kernel has no " + root.resolve("kubepods/cpuset.cpus.exclusive"))
                                .contains("Linux 6.7"));
        assertThat(PartitionSupport.of(CgroupVersion.V1, root, KUBEPODS))
                .isEqualTo(
                        new PartitionSupport.Unsupported("the node runs cgroup v1; cpuset partitions are cgroup v2's"));
    }
}
