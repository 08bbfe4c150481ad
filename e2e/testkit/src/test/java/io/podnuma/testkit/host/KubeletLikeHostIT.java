package io.podnuma.testkit.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** On this machine's real cgroup v1 cpuset hierarchy (root only; skipped elsewhere). */
class KubeletLikeHostIT {

    static final String ID = "b".repeat(64);

    @Test
    void aContainerIsARealProcessInACgroupNamedAsTheKubeletNamesIt() throws Exception {
        PodContainer c = new PodContainer(QosClass.BURSTABLE, UUID.randomUUID().toString(), ID);
        Path root;
        try (KubeletLikeHost host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD)) {
            root = host.root();
            long pid = host.startContainer(c);
            assertThat(host.dir(c)).isEqualTo(root.resolve(KubeletCgroupNames.container(CgroupDriverName.SYSTEMD, c)));
            assertThat(Files.readString(host.dir(c).resolve("cgroup.procs"))).contains(Long.toString(pid));
            // born with the parent's lists: every CPU and memory node of the host
            assertThat(host.cpusetOf(c)).isEqualTo(host.cpus());
            assertThat(KubeletLikeHost.allowedCpus(pid)).isEqualTo(host.cpus());
            assertThat(KubeletLikeHost.allowedMems(pid)).isEqualTo(host.mems());
            assertThat(host.kubeletCgroupRoot()).isEqualTo("/" + root.getFileName());
            assertThat(host.cgroupDirs()).contains(host.path(c));
            assertThat(host.containerDirs()).containsExactly(host.path(c));

            CpuList one = CpuList.of(host.cpus().ids().first());
            CgroupTrees.write(host.dir(c).resolve("cpuset.cpus"), one.toString());
            assertThat(KubeletLikeHost.allowedCpus(pid)).isEqualTo(one);

            host.stopContainer(c);
            assertThat(host.dir(c)).doesNotExist();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
        }
        assertThat(root).doesNotExist();
    }

    @Test
    void theSubtreeOfAKilledRunIsRemovedWithItsProcesses() throws Exception {
        // a pid that ran and is gone: its JVM is "killed"
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = KubeletLikeHost.CPUSET.resolve("podnuma-it-" + gone.pid() + "-0badc0de");
        try (KubeletLikeHost host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS)) {
            Files.createDirectory(stale);
            Files.writeString(stale.resolve("cpuset.mems"), host.mems().toString());
            Files.writeString(stale.resolve("cpuset.cpus"), host.cpus().toString());
            Process left = new ProcessBuilder("sleep", "3600").start();
            Files.writeString(stale.resolve("cgroup.procs"), Long.toString(left.pid()));

            assertThat(KubeletLikeHost.removeLeftovers()).isEqualTo(1);
            assertThat(stale).doesNotExist();
            assertThat(left.isAlive()).isFalse();
            assertThat(host.root()).as("a live run's subtree stays").exists();
        } finally {
            CgroupTrees.removeTree(stale);
        }
    }
}
