package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the agent can ask the host to write at all: the files of {@link WritableCgroupFile} and, for those it only
 * ever sets one way, that one value. Everything else is refused before it reaches {@link CgroupFiles}.
 */
class CgroupWriteTest {

    private static final Path DIR = Path.of("/sys/fs/cgroup/kubepods.slice/c1");

    @Test
    void theWritableFilesAreTheCpusetListsTheirDelegationTheQuotaSwitchesAndThePartitionFiles() {
        assertThat(Arrays.stream(WritableCgroupFile.values()).map(WritableCgroupFile::fileName))
                .containsExactly(
                        "cpuset.cpus",
                        "cpuset.mems",
                        "cgroup.subtree_control",
                        "cpu.cfs_quota_us",
                        "cpu.max",
                        "cpuset.cpus.exclusive",
                        "cpuset.cpus.partition")
                .doesNotContain("cgroup.procs", "memory.max", "cgroup.type");
    }

    @Test
    void aPartitionIsMemberRootOrIsolatedAndNothingElse() {
        for (String type : new String[] {"member", "root", "isolated"}) {
            assertThat(new CgroupWrite(DIR, WritableCgroupFile.CPUSET_CPUS_PARTITION, type).value())
                    .isEqualTo(type);
        }
        assertThatThrownBy(() -> new CgroupWrite(DIR, WritableCgroupFile.CPUSET_CPUS_PARTITION, "isolated invalid"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("refusing to write \"isolated invalid\" to " + DIR.resolve("cpuset.cpus.partition")
                        + ": the agent writes only \"member\" or \"root\" or \"isolated\" to cpuset.cpus.partition"
                        + " (the partition type)");
        assertThat(new CgroupWrite(DIR, WritableCgroupFile.CPUSET_CPUS_EXCLUSIVE, "").value())
                .isEmpty();
        assertThatThrownBy(() -> new CgroupWrite(DIR, WritableCgroupFile.CPUSET_CPUS_EXCLUSIVE, "all"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("refusing to write \"all\" to " + DIR.resolve("cpuset.cpus.exclusive")
                        + ": cpuset.cpus.exclusive takes a CPU list: ");
    }

    @Test
    void aThrottlingCpuMaxIsRefused() {
        assertThatThrownBy(() -> new CgroupWrite(DIR, WritableCgroupFile.CPU_MAX, "50000 100000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("refusing to write \"50000 100000\" to /sys/fs/cgroup/kubepods.slice/c1/cpu.max: the agent"
                        + " writes only \"max\" to cpu.max (the CFS quota off)");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "CPU_CFS_QUOTA_US | 50000 | -1 | the CFS quota off",
                "SUBTREE_CONTROL | +memory | +cpuset | cpuset passed to the children",
                "SUBTREE_CONTROL | -cpuset | +cpuset | cpuset passed to the children",
            })
    void aOneValueFileTakesThatValueOnly(WritableCgroupFile file, String value, String only, String meaning) {
        assertThat(new CgroupWrite(DIR, file, only).value()).isEqualTo(only);
        assertThatThrownBy(() -> new CgroupWrite(DIR, file, value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("refusing to write \"" + value + "\" to " + DIR.resolve(file.fileName())
                        + ": the agent writes only \"" + only + "\" to " + file.fileName() + " (" + meaning + ")");
    }

    @Test
    void aCpusetFileTakesAListAndNothingElse() {
        assertThat(new CgroupWrite(DIR, WritableCgroupFile.CPUSET_CPUS, "0-3,8").path())
                .isEqualTo(DIR.resolve("cpuset.cpus"));
        assertThat(new CgroupWrite(DIR, WritableCgroupFile.CPUSET_MEMS, "").value())
                .isEmpty();
        assertThatThrownBy(() -> new CgroupWrite(DIR, WritableCgroupFile.CPUSET_MEMS, "0\n1234"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("refusing to write \"0\n1234\" to " + DIR.resolve("cpuset.mems")
                        + ": cpuset.mems takes a memory node list: ");
    }
}
