package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupDetectorTest {

    /** The mount table of a cgroup v1 host with a v2 hierarchy beside it (systemd's "hybrid" mode). */
    private static final String HYBRID = """
            24 29 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpu,cpuacct
            34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime shared:12 - cgroup cgroup rw,cpuset
            35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    private static final String UNIFIED = """
            24 29 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
            30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate
            """;

    @Test
    void v1WithPerControllerMounts(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("cpuset/kubepods"));

        CgroupLayout l = new CgroupDetector(root).detect(HYBRID, Optional.empty());

        assertThat(l.version()).isEqualTo(CgroupVersion.V1);
        assertThat(l.cpusetRoot()).isEqualTo(root.resolve("cpuset"));
        assertThat(l.cpuRoot()).isEqualTo(root.resolve("cpu,cpuacct"));
        assertThat(l.naming().driver()).isEqualTo(CgroupDriver.CGROUPFS);
    }

    @Test
    void v2Unified(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("kubepods.slice"));
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");

        CgroupLayout l = new CgroupDetector(root).detect(UNIFIED, Optional.empty());

        assertThat(l.version()).isEqualTo(CgroupVersion.V2);
        assertThat(l.cpusetRoot()).isEqualTo(root);
        assertThat(l.cpuRoot()).isEqualTo(root);
        assertThat(l.naming().driver()).isEqualTo(CgroupDriver.SYSTEMD);
    }

    @Test
    void anExplicitDriverWinsAndNeedsNoKubepods(@TempDir Path root) throws Exception {
        assertThat(new CgroupDetector(root)
                        .detect(UNIFIED, Optional.of(CgroupDriver.SYSTEMD))
                        .naming()
                        .driver())
                .isEqualTo(CgroupDriver.SYSTEMD);
    }

    @Test
    void driverErrorsSayWhatToSet(@TempDir Path root) throws Exception {
        CgroupDetector d = new CgroupDetector(root);
        assertThatThrownBy(() -> d.detect(UNIFIED, Optional.empty()))
                .isInstanceOf(CgroupDetectionException.class)
                .hasMessageContaining("neither kubepods nor kubepods.slice exists under " + root)
                .hasMessageContaining("Set the cgroup driver explicitly");
        Files.createDirectories(root.resolve("kubepods"));
        Files.createDirectories(root.resolve("kubepods.slice"));
        assertThatThrownBy(() -> d.detect(UNIFIED, Optional.empty()))
                .isInstanceOf(CgroupDetectionException.class)
                .hasMessageContaining("both kubepods and kubepods.slice exist");
    }

    @Test
    void noCpusetControllerIsAClearError(@TempDir Path root) throws Exception {
        String noCpuset = HYBRID.lines().filter(l -> !l.contains("cpuset")).reduce("", (a, b) -> a + b + "\n");
        assertThatThrownBy(() -> new CgroupDetector(root).detect(noCpuset, Optional.of(CgroupDriver.CGROUPFS)))
                .isInstanceOf(CgroupDetectionException.class)
                .hasMessageContaining("no cgroup hierarchy with the cpuset controller")
                .hasMessageContaining("cgroup2 at /sys/fs/cgroup/unified");
        Files.writeString(root.resolve("cgroup.controllers"), "cpu io memory pids\n");
        assertThatThrownBy(() -> new CgroupDetector(root).detect(UNIFIED, Optional.of(CgroupDriver.SYSTEMD)))
                .isInstanceOf(CgroupDetectionException.class)
                .hasMessageContaining("without cpuset");
    }

    @Test
    void malformedMountTableAndEscapedMountPoints(@TempDir Path root) throws Exception {
        assertThatThrownBy(() -> new CgroupDetector(root).detect("garbage line\n", Optional.empty()))
                .isInstanceOf(CgroupDetectionException.class)
                .hasMessageContaining("mount table line 1 \"garbage line\" is not in /proc/self/mountinfo format");
        String escaped = "34 31 0:31 / /sys/fs/cgroup/cpu\\040set rw - cgroup cgroup rw,cpuset\n";
        assertThat(new CgroupDetector(root)
                        .detect(escaped, Optional.of(CgroupDriver.CGROUPFS))
                        .cpusetRoot())
                .isEqualTo(root.resolve("cpu set"));
    }

    @Test
    void thisHostsMountTableParses() throws Exception {
        Path mountinfo = Path.of("/proc/self/mountinfo");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(mountinfo), "no /proc/self/mountinfo here");
        assertThat(CgroupDetector.parseMounts(Files.readString(mountinfo))).isNotEmpty();
    }
}
