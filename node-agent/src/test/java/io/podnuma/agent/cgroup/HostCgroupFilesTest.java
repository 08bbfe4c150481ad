package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's files on an ordinary file system: child directories are listed without the files beside them, and
 * a directory with none (link count 2) answers without a listing. {@code CgroupCpusetIT} checks the same on the
 * real cgroup hierarchy. Reads return the whole file, however long, and a missing file is a {@link
 * NoSuchFileException} (the callers tell a container gone from a file they cannot read by it).
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

    @Test
    void readsShortEmptyAndLongContentsWhole() throws IOException {
        Path file = dir.resolve("cpuset.cpus");
        Files.writeString(file, "0-3,8\n");
        assertThat(files.read(file)).isEqualTo("0-3,8\n");

        Files.writeString(file, "");
        assertThat(files.read(file)).isEmpty();

        // Longer than the first buffer, and exactly its size, so both the growth and the boundary are read.
        String list =
                IntStream.range(0, 400).mapToObj(i -> Integer.toString(2 * i)).collect(Collectors.joining(","));
        Files.writeString(file, list + "\n");
        assertThat(files.read(file)).isEqualTo(list + "\n");
        String exact = "1".repeat(256);
        Files.writeString(file, exact);
        assertThat(files.read(file)).isEqualTo(exact);
    }

    @Test
    void aMissingFileIsNoSuchFileNamingIt() {
        Path missing = dir.resolve("gone/cpuset.mems");
        assertThatThrownBy(() -> files.read(missing))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(missing.toString());
    }
}
