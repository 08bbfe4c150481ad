package io.podnuma.agent.cgroup.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What decides whether partitions can be made: the cgroup version, the kernel's {@code cpuset.cpus.exclusive}, and the
 * agent's {@code CAP_SYS_ADMIN} (the 6.12 guest refused the chart's agent without it: "isolated invalid (Enable partition
 * not permitted)").
 */
class PartitionSupportTest {

    private static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");
    /** A root process with every capability (as the guest's shell had), and one with all dropped (the chart's agent). */
    private static final String EVERY_CAPABILITY =
            "Name:\tjava\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\n";

    private static final String NO_CAPABILITY = "Name:\tjava\nCapEff:\t0000000000000000\n";

    @TempDir
    Path root;

    @Test
    void cgroupV2WithExclusiveListsHasThem() throws Exception {
        Files.createDirectories(root.resolve("kubepods"));
        Files.writeString(root.resolve("kubepods/cpuset.cpus.exclusive"), "\n");
        assertThat(PartitionSupport.of(CgroupVersion.V2, root, KUBEPODS, EVERY_CAPABILITY))
                .isEqualTo(new PartitionSupport.Supported());
    }

    @Test
    void anOlderKernelOrCgroupV1HasNot() throws Exception {
        Files.createDirectories(root.resolve("kubepods"));
        Files.writeString(root.resolve("kubepods/cpuset.cpus.partition"), "member\n");
        assertThat(PartitionSupport.of(CgroupVersion.V2, root, KUBEPODS, EVERY_CAPABILITY))
                .isInstanceOfSatisfying(
                        PartitionSupport.Unsupported.class,
                        u -> assertThat(u.reason())
                                .startsWith("the kernel has no " + root.resolve("kubepods/cpuset.cpus.exclusive"))
                                .contains("Linux 6.7"));
        assertThat(PartitionSupport.of(CgroupVersion.V1, root, KUBEPODS, EVERY_CAPABILITY))
                .isEqualTo(
                        new PartitionSupport.Unsupported("the node runs cgroup v1; cpuset partitions are cgroup v2's"));
    }

    @Test
    void anAgentWithoutSysAdminHasNot() throws Exception {
        Files.createDirectories(root.resolve("kubepods"));
        Files.writeString(root.resolve("kubepods/cpuset.cpus.exclusive"), "\n");
        assertThat(PartitionSupport.of(CgroupVersion.V2, root, KUBEPODS, NO_CAPABILITY))
                .isInstanceOfSatisfying(
                        PartitionSupport.Unsupported.class,
                        u -> assertThat(u.reason())
                                .startsWith("the agent lacks CAP_SYS_ADMIN")
                                .contains("agent.cpusetPartitions=true"));
        // CAP_SYS_ADMIN alone (bit 21), as the operator grants it.
        assertThat(PartitionSupport.sysAdmin("CapEff:\t0000000000200000\n")).isTrue();
        assertThat(PartitionSupport.sysAdmin("CapEff:\t00000000001fffff\n")).isFalse();
        assertThat(PartitionSupport.sysAdmin("Name:\tjava\n")).isFalse();
    }
}
