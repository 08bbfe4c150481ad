package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.WritableCgroupFile.CPUSET_CPUS;
import static io.podnuma.agent.cgroup.WritableCgroupFile.CPUSET_MEMS;
import static io.podnuma.agent.cgroup.WritableCgroupFile.CPU_CFS_QUOTA_US;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host's files on an ordinary file system: child directories are listed without the files beside them, and
 * a directory with none (link count 2) answers without a listing. {@code CgroupCpusetIT} checks the same on the
 * real cgroup hierarchy. Reads return the whole file, however long, and a missing file is a {@link
 * NoSuchFileException} (the callers tell a container gone from a file they cannot read by it). Writes stay inside
 * the layout's hierarchy of their file, links resolved, and on a file of their own name; anything else is refused
 * before a byte is written.
 */
class HostCgroupFilesTest {

    @TempDir
    Path tmp;

    /** The v1 cpuset hierarchy of the tests; the cpu hierarchy is its sibling {@link #cpu}. */
    private Path dir;

    private Path cpu;
    private HostCgroupFiles files;

    @BeforeEach
    void hierarchies() throws IOException {
        // Resolved, so that a path built here is the one the refusals name (a temporary directory may sit behind a
        // link).
        Path base = tmp.toRealPath();
        dir = Files.createDirectory(base.resolve("cpuset"));
        cpu = Files.createDirectory(base.resolve("cpu,cpuacct"));
        files = new HostCgroupFiles(
                new CgroupLayout(CgroupVersion.V1, dir, cpu, new CgroupNaming(CgroupDriver.CGROUPFS)));
    }

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
        files.write(new CgroupWrite(dir, CPUSET_CPUS, "3"));
        assertThat(files.read(f)).isEqualTo("3");
        files.write(new CgroupWrite(dir, CPUSET_CPUS, ""));
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

    @Test
    void writesEachFileInItsOwnHierarchy() throws Exception {
        Path container = Files.createDirectories(dir.resolve("kubepods/burstable/pod1/c1"));
        Path mems = Files.writeString(container.resolve("cpuset.mems"), "0-1\n");
        Path quotaDir = Files.createDirectories(cpu.resolve("kubepods/burstable/pod1/c1"));
        Path quota = Files.writeString(quotaDir.resolve("cpu.cfs_quota_us"), "50000\n");

        files.write(new CgroupWrite(container, CPUSET_MEMS, "1"));
        files.write(new CgroupWrite(quotaDir, CPU_CFS_QUOTA_US, "-1"));

        assertThat(files.read(mems)).isEqualTo("1");
        assertThat(files.read(quota)).isEqualTo("-1");
    }

    @Test
    void aPathThroughDotDotOutOfTheHierarchyIsRefused() throws Exception {
        Path outside = Files.createDirectory(tmp.toRealPath().resolve("outside"));
        Path target = Files.writeString(outside.resolve("cpuset.cpus"), "0-63\n");
        Files.createDirectory(dir.resolve("kubepods"));
        Path escaping = dir.resolve("kubepods/../../outside");

        assertThatThrownBy(() -> files.write(new CgroupWrite(escaping, CPUSET_CPUS, "1")))
                .isInstanceOf(CgroupWriteRefusedException.class)
                .hasMessage("refusing to write \"1\" to " + escaping.resolve("cpuset.cpus") + " (" + target
                        + " once links are resolved): the agent writes cpuset.cpus only to a file of that name inside"
                        + " the cgroup hierarchy " + dir);
        assertThat(Files.readString(target)).isEqualTo("0-63\n");
    }

    @Test
    void anAbsolutePathElsewhereIsRefused() throws Exception {
        Path outside = Files.createDirectory(tmp.toRealPath().resolve("outside"));
        Path target = Files.writeString(outside.resolve("cpuset.mems"), "0-1\n");

        assertThatThrownBy(() -> files.write(new CgroupWrite(outside, CPUSET_MEMS, "0")))
                .isInstanceOf(CgroupWriteRefusedException.class)
                .hasMessage("refusing to write \"0\" to " + target + ": the agent writes cpuset.mems only to a file"
                        + " of that name inside the cgroup hierarchy " + dir);
        assertThat(Files.readString(target)).isEqualTo("0-1\n");
    }

    @Test
    void aLinkedDirectoryLeadingOutOfTheHierarchyIsRefused() throws Exception {
        Path outside = Files.createDirectory(tmp.toRealPath().resolve("outside"));
        Path target = Files.writeString(outside.resolve("cpuset.cpus"), "0-63\n");
        Path link = Files.createSymbolicLink(dir.resolve("kubepods"), outside);

        assertThatThrownBy(() -> files.write(new CgroupWrite(link, CPUSET_CPUS, "1")))
                .isInstanceOf(CgroupWriteRefusedException.class)
                .hasMessage("refusing to write \"1\" to " + link.resolve("cpuset.cpus") + " (" + target
                        + " once links are resolved): the agent writes cpuset.cpus only to a file of that name inside"
                        + " the cgroup hierarchy " + dir);
        assertThat(Files.readString(target)).isEqualTo("0-63\n");
    }

    /**
     * No {@link WritableCgroupFile} names these files, so the port cannot be asked to write them; a link of a
     * writable name pointing at one, inside the hierarchy, is the only way left, and it is refused.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cgroup.procs", "memory.max", "cpu.max"})
    void aCpusetFileLinkedToAnotherControlFileIsRefused(String other) throws Exception {
        Path container = Files.createDirectories(dir.resolve("kubepods/pod1/c1"));
        Path target = Files.writeString(container.resolve(other), "unchanged\n");
        Path link = Files.createSymbolicLink(container.resolve("cpuset.cpus"), target);

        assertThatThrownBy(() -> files.write(new CgroupWrite(container, CPUSET_CPUS, "1")))
                .isInstanceOf(CgroupWriteRefusedException.class)
                .hasMessage("refusing to write \"1\" to " + link + " (" + target + " once links are resolved): the"
                        + " agent writes cpuset.cpus only to a file of that name inside the cgroup hierarchy " + dir);
        assertThat(Files.readString(target)).isEqualTo("unchanged\n");
    }

    @Test
    void aQuotaFileInTheCpusetHierarchyIsRefused() throws Exception {
        Path container = Files.createDirectories(dir.resolve("kubepods/pod1/c1"));
        Path target = Files.writeString(container.resolve("cpu.cfs_quota_us"), "50000\n");

        assertThatThrownBy(() -> files.write(new CgroupWrite(container, CPU_CFS_QUOTA_US, "-1")))
                .isInstanceOf(CgroupWriteRefusedException.class)
                .hasMessage("refusing to write \"-1\" to " + target + ": the agent writes cpu.cfs_quota_us only to a"
                        + " file of that name inside the cgroup hierarchy " + cpu);
        assertThat(Files.readString(target)).isEqualTo("50000\n");
    }

    @Test
    void aMissingFileIsStillNoSuchFileAndNothingIsMade() {
        Path gone = dir.resolve("kubepods/gone");
        assertThatThrownBy(() -> files.write(new CgroupWrite(gone, CPUSET_CPUS, "1")))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(gone.resolve("cpuset.cpus").toString());
        assertThat(gone).doesNotExist();
    }
}
