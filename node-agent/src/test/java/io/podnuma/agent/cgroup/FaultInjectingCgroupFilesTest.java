package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultInjectingCgroupFilesTest {

    @TempDir
    Path dir;

    private HostCgroupFiles host() {
        return new HostCgroupFiles(
                new CgroupLayout(CgroupVersion.V1, dir, dir, new CgroupNaming(CgroupDriver.CGROUPFS)));
    }

    private CgroupWrite cpus(String value) {
        return new CgroupWrite(dir, WritableCgroupFile.CPUSET_CPUS, value);
    }

    @Test
    void offUnlessTheEnvironmentNamesAControlFile() {
        CgroupFiles host = host();
        assertThat(FaultInjectingCgroupFiles.fromEnvironment(Map.of(), host)).isSameAs(host);
        assertThat(FaultInjectingCgroupFiles.fromEnvironment(Map.of(FaultInjectingCgroupFiles.ENV, " "), host))
                .isSameAs(host);
        assertThat(FaultInjectingCgroupFiles.fromEnvironment(
                        Map.of(FaultInjectingCgroupFiles.ENV, dir.resolve("c").toString()), host))
                .isInstanceOf(FaultInjectingCgroupFiles.class);
    }

    @ParameterizedTest
    @CsvSource({
        "EBUSY, Device or resource busy",
        "enospc, No space left on device",
        "EACCES, Permission denied",
    })
    void writesFailWithTheKernelsTextWhileTheControlFileNamesAnErrno(String errno, String text) throws Exception {
        Path control = dir.resolve("fault");
        Path target = Files.writeString(dir.resolve("cpuset.cpus"), "0-1\n");
        CgroupFiles files = new FaultInjectingCgroupFiles(host(), control);

        files.write(cpus("1"));
        assertThat(files.read(target).strip()).isEqualTo("1");

        Files.writeString(control, errno + "\n");
        assertThatThrownBy(() -> files.write(cpus("0")))
                .isInstanceOf(
                        errno.equalsIgnoreCase("EACCES") ? AccessDeniedException.class : FileSystemException.class)
                .hasMessageContaining(text)
                .hasMessageContaining(target.toString());
        assertThat(files.read(target).strip()).as("reads still pass").isEqualTo("1");

        Files.writeString(control, "");
        files.write(cpus("0"));
        assertThat(files.read(target).strip()).isEqualTo("0");
    }

    @Test
    void anUnknownErrnoIsNamed() throws Exception {
        Path control = Files.writeString(dir.resolve("fault"), "EPERM");
        CgroupFiles files = new FaultInjectingCgroupFiles(host(), control);
        assertThatThrownBy(() -> files.write(cpus("0")))
                .hasMessageContaining("names EPERM: allowed EBUSY, ENOSPC, EACCES, SLOW or nothing");
    }

    @Test
    void slowWritesGoThroughLate() throws Exception {
        Path control = Files.writeString(dir.resolve("fault"), "SLOW\n");
        Path target = Files.writeString(dir.resolve("cpuset.cpus"), "0-1\n");
        CgroupFiles files = new FaultInjectingCgroupFiles(host(), control);
        long t0 = System.nanoTime();
        files.write(cpus("1"));
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(FaultInjectingCgroupFiles.SLOW_WRITE.toNanos());
        assertThat(files.read(target).strip()).isEqualTo("1");
    }
}
