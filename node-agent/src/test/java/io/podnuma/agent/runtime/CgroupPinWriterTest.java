package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.runtime.core.Pin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupPinWriterTest {

    @TempDir
    Path root;

    private final CgroupPath container = CgroupPath.parse("kubepods/burstable/pod1/abc");

    private CgroupPinWriter writer() {
        CgroupLayout layout = new CgroupLayout(CgroupVersion.V1, root, root, new CgroupNaming(CgroupDriver.CGROUPFS));
        return new CgroupPinWriter(layout, new HostCgroupFiles(layout));
    }

    @Test
    void readsBothSetsOfAContainer() throws Exception {
        Path dir = Files.createDirectories(container.in(root));
        Files.writeString(dir.resolve("cpuset.cpus"), "2-3,6\n");
        Files.writeString(dir.resolve("cpuset.mems"), "0\n");

        assertThat(writer().read(container)).contains(new Pin(CpuSet.parse("2-3,6"), CpuSet.parse("0")));
    }

    @Test
    void aContainerThatIsGoneHasNothingToRead() throws Exception {
        Files.createDirectories(container.parent().in(root));

        assertThat(writer().read(container)).isEmpty();
        assertThat(writer().readQuietly(container)).isEmpty();
    }

    @Test
    void aDirectoryWithoutCpusetFilesRunsOnWhatItsParentHas() throws Exception {
        Files.createDirectories(container.in(root)); // v2 before the parent enables cpuset for its children

        assertThat(writer().read(container)).isEqualTo(Optional.of(new Pin(CpuSet.empty(), CpuSet.empty())));
    }
}
