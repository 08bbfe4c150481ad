package io.podnuma.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.testkit.host.CgroupTrees;
import io.podnuma.testkit.host.CpusetSubtree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The minimal watcher on this machine's real cgroup v1 cpuset hierarchy (root only; skipped elsewhere): it pins what
 * it is asked to, and its directory, like every cpuset subtree of the test kit, does not outlive a killed run.
 */
class MinimalWatcherIT {

    @Test
    void aKilledRunsFloorDirectoryIsRemovedWithItsProcessByTheNextRun() throws Exception {
        Optional<String> reason = CpusetSubtree.unavailableReason();
        Assumptions.assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
        // a pid that ran and is gone: its JVM is "killed"
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = CpusetSubtree.CPUSET.resolve("podnuma-" + MinimalWatcher.PURPOSE + "-" + gone.pid() + "-0badc0de");
        String cpus = Files.readString(CpusetSubtree.CPUSET.resolve("cpuset.effective_cpus"))
                .strip();
        String mems = Files.readString(CpusetSubtree.CPUSET.resolve("cpuset.effective_mems"))
                .strip();
        Path dir;
        try {
            Files.createDirectory(stale);
            Files.writeString(stale.resolve("cpuset.mems"), mems);
            Files.writeString(stale.resolve("cpuset.cpus"), cpus);
            Process left = new ProcessBuilder("sleep", "3600").start();
            Files.writeString(stale.resolve("cgroup.procs"), Long.toString(left.pid()));

            CpuSet wanted = CpuSet.of(CpuSet.parse(cpus).first());
            try (MinimalWatcher watcher = new MinimalWatcher(wanted)) {
                dir = watcher.dir();
                assertThat(stale).doesNotExist();
                assertThat(left.waitFor(10, TimeUnit.SECONDS)).as("killed").isTrue();
                assertThat(dir.getFileName().toString())
                        .as("named like every subtree of the kit, so a later run finds it")
                        .matches("podnuma-floor-" + ProcessHandle.current().pid() + "-[0-9a-f]{8}");
                assertThat(watcher.start(100_000, TimeUnit.SECONDS.toNanos(5)))
                        .as("a start is pinned to the wanted set")
                        .isNotNegative();
            }
            assertThat(dir).as("closed: removed").doesNotExist();
        } finally {
            CgroupTrees.removeTree(stale);
        }
    }
}
