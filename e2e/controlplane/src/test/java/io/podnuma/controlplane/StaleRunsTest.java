package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleRunsTest {

    @TempDir
    Path base;

    private Process child;

    @BeforeEach
    void startChild() throws IOException {
        child = new ProcessBuilder("sleep", "60").start();
    }

    @AfterEach
    void stopChild() {
        child.destroyForcibly();
    }

    /** The pid of a process that has already exited: a JVM that was killed. */
    private static long deadPid() throws IOException, InterruptedException {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        return gone.pid();
    }

    @Test
    void childrenOfADeadJvmAreStoppedAndItsWorkDirRemoved() throws Exception {
        Path stale = base.resolve(StaleRuns.WORK_DIR_PREFIX + deadPid());
        StaleRuns.record(stale, child.toHandle());

        assertThat(StaleRuns.reap(base)).isEqualTo(1);
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stale).doesNotExist();
    }

    @Test
    void aLiveJvmsPlaneIsLeftAlone() {
        Path mine =
                base.resolve(StaleRuns.WORK_DIR_PREFIX + ProcessHandle.current().pid());
        StaleRuns.record(mine, child.toHandle());

        assertThat(StaleRuns.reap(base)).isZero();
        assertThat(child.isAlive()).isTrue();
        assertThat(mine.resolve(StaleRuns.PIDS)).exists();
    }

    @Test
    void aReusedPidRunningSomethingElseIsNotKilled() throws Exception {
        Path stale = base.resolve(StaleRuns.WORK_DIR_PREFIX + deadPid());
        Files.createDirectories(stale);
        Files.writeString(stale.resolve(StaleRuns.PIDS), child.pid() + " /some/other/etcd\n");

        assertThat(StaleRuns.reap(base)).isZero();
        assertThat(child.isAlive()).isTrue();
        assertThat(stale).doesNotExist();
    }

    @Test
    void aReusedPidRunningTheSameExecutableSinceALaterStartIsNotKilled() throws Exception {
        Path stale = base.resolve(StaleRuns.WORK_DIR_PREFIX + deadPid());
        Files.createDirectories(stale);
        String command = child.toHandle().info().command().orElseThrow();
        long started = child.toHandle().info().startInstant().orElseThrow().toEpochMilli();
        // Recorded as started a minute earlier: another process that had this pid then.
        Files.writeString(stale.resolve(StaleRuns.PIDS), child.pid() + " " + (started - 60_000) + " " + command + "\n");

        assertThat(StaleRuns.reap(base)).isZero();
        assertThat(child.isAlive()).isTrue();
        assertThat(stale).doesNotExist();
    }

    @Test
    void aLineAsOlderRunsWroteItStillStopsItsChild() throws Exception {
        Path stale = base.resolve(StaleRuns.WORK_DIR_PREFIX + deadPid());
        Files.createDirectories(stale);
        String command = child.toHandle().info().command().orElseThrow();
        Files.writeString(stale.resolve(StaleRuns.PIDS), child.pid() + " " + command + "\n");

        assertThat(StaleRuns.reap(base)).isEqualTo(1);
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void otherDirectoriesAreIgnored() throws IOException {
        Files.createDirectories(base.resolve("controlplane-logs"));
        Files.createDirectories(base.resolve(StaleRuns.WORK_DIR_PREFIX + "not-a-pid"));
        assertThat(StaleRuns.reap(base)).isZero();
        assertThat(base.resolve("controlplane-logs")).exists();
        assertThat(StaleRuns.reap(base.resolve("missing"))).isZero();
    }
}
