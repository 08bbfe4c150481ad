package io.podnuma.demo.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCheckTest {

    @TempDir
    Path dir;

    @Test
    void runsAsRootOnCgroupV1() throws IOException {
        Path mount = v1();
        assertThat(HostCheck.unavailable("Linux", mount, status("0\t0\t0\t0"))).isEmpty();
    }

    @Test
    void cgroupV2IsNamedAsTheReason() throws IOException {
        Path mount = Files.createDirectories(dir.resolve("cgroup"));
        Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        assertThat(HostCheck.unavailable("Linux", mount, status("0\t0\t0\t0")))
                .hasValueSatisfying(r -> assertThat(r).contains("cgroup v2"));
    }

    @Test
    void noCpusetHierarchyAtAll() throws IOException {
        Path mount = Files.createDirectories(dir.resolve("cgroup"));
        assertThat(HostCheck.unavailable("Linux", mount, status("0\t0\t0\t0")))
                .hasValueSatisfying(r -> assertThat(r).contains("no cgroup v1 cpuset hierarchy"));
    }

    @Test
    void theEffectiveUidDecides() throws IOException {
        Path mount = v1();
        assertThat(HostCheck.unavailable("Linux", mount, status("0\t1000\t1000\t1000")))
                .hasValueSatisfying(r -> assertThat(r).contains("not running as root"));
        assertThat(HostCheck.unavailable("Linux", mount, status("1000\t0\t0\t0")))
                .isEmpty();
    }

    @Test
    void oneCpuIsTooFew() throws IOException {
        Path mount = v1();
        Files.writeString(mount.resolve("cpuset/cpuset.effective_cpus"), "0\n");
        assertThat(HostCheck.unavailable("Linux", mount, status("0\t0\t0\t0")))
                .hasValueSatisfying(r -> assertThat(r).contains("needs 2"));
    }

    @Test
    void otherSystemsAreNamed() throws IOException {
        assertThat(HostCheck.unavailable("Mac OS X", v1(), status("0\t0\t0\t0")))
                .hasValueSatisfying(r -> assertThat(r).contains("not Linux (Mac OS X)"));
    }

    @Test
    void anUnreadableStatusIsAReasonNotACrash() throws IOException {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\n");
        assertThat(HostCheck.unavailable("Linux", v1(), status))
                .hasValueSatisfying(r -> assertThat(r).contains("cannot read").contains("has no Uid line"));
    }

    private Path v1() throws IOException {
        Path mount = dir.resolve("cgroup");
        Files.createDirectories(mount.resolve("cpuset"));
        Files.writeString(mount.resolve("cpuset/cpuset.cpus"), "0-1\n");
        Files.writeString(mount.resolve("cpuset/cpuset.effective_cpus"), "0-1\n");
        return mount;
    }

    private Path status(String uids) throws IOException {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\nUid:\t" + uids + "\nGid:\t0\t0\t0\t0\n");
        return status;
    }
}
