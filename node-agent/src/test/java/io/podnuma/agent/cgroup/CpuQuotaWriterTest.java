package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuQuotaWriterTest {

    private static final CgroupPath C =
            CgroupPath.parse("kubepods/pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b/" + "c".repeat(64));

    @Test
    void v1SetsMinusOneInTheCpuHierarchyOnce(@TempDir Path root) throws Exception {
        Path cpu = root.resolve("cpu,cpuacct");
        Files.createDirectories(C.in(cpu));
        Files.writeString(C.in(cpu).resolve("cpu.cfs_quota_us"), "200000\n");
        CgroupLayout l = new CgroupLayout(
                CgroupVersion.V1, root.resolve("cpuset"), cpu, new CgroupNaming(CgroupDriver.CGROUPFS));
        CpuQuotaWriter w = new CpuQuotaWriter(l, new HostCgroupFiles(l));

        assertThat(w.removeQuota(C)).contains(new CgroupWrite(C.in(cpu), WritableCgroupFile.CPU_CFS_QUOTA_US, "-1"));
        assertThat(Files.readString(C.in(cpu).resolve("cpu.cfs_quota_us"))).isEqualTo("-1");
        assertThat(w.removeQuota(C)).isEmpty();
    }

    @Test
    void v2SetsMaxAndKeepsThePeriod(@TempDir Path root) throws Exception {
        Files.createDirectories(C.in(root));
        Files.writeString(C.in(root).resolve("cpu.max"), "150000 100000\n");
        CgroupLayout l = new CgroupLayout(CgroupVersion.V2, root, root, new CgroupNaming(CgroupDriver.CGROUPFS));
        CpuQuotaWriter w = new CpuQuotaWriter(l, new HostCgroupFiles(l));

        assertThat(w.removeQuota(C)).contains(new CgroupWrite(C.in(root), WritableCgroupFile.CPU_MAX, "max"));
        Files.writeString(C.in(root).resolve("cpu.max"), "max 100000\n"); // how the kernel shows it afterwards
        assertThat(w.removeQuota(C)).isEmpty();
    }

    @Test
    void aMissingFileNamesThePath(@TempDir Path root) {
        CgroupLayout l = new CgroupLayout(CgroupVersion.V2, root, root, new CgroupNaming(CgroupDriver.CGROUPFS));
        assertThatThrownBy(() -> new CpuQuotaWriter(l, new HostCgroupFiles(l)).removeQuota(C))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("cannot read " + C.in(root).resolve("cpu.max"))
                .hasMessageContaining("NoSuchFileException");
    }
}
