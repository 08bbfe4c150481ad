package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's files on an ordinary file system: child directories are listed without the files beside them, and
 * a directory with none (link count 2) answers without a listing. {@code CgroupCpusetIT} checks the same on the
 * real cgroup hierarchy.
 */
class HostCgroupFilesTest {

    @TempDir
    Path dir;

    private final HostCgroupFiles files = new HostCgroupFiles();

    @Test
    void childDirectoriesAreTheSubDirectoriesOnly() throws Exception {
        Files.writeString(dir.resolve("cpuset.cpus"), "0-1\n");
        Files.writeString(dir.resolve("tasks"), "");
        assertThat(files.childDirectories(dir)).isEmpty();

        Path a = Files.createDirectory(dir.resolve("a"));
        Path b = Files.createDirectory(dir.resolve("b.scope"));
        Files.createDirectory(a.resolve("nested"));
        assertThat(files.childDirectories(dir)).containsExactlyInAnyOrder(a, b);
        assertThat(files.childDirectories(b)).isEmpty();
    }

    @Test
    void writesReplaceTheValueAndAnEmptyListIsANewline() throws Exception {
        Path f = Files.writeString(dir.resolve("cpuset.cpus"), "0-63\n");
        files.write(f, "3");
        assertThat(files.read(f)).isEqualTo("3");
        files.write(f, "");
        assertThat(files.read(f)).isEqualTo("\n");
    }
}
