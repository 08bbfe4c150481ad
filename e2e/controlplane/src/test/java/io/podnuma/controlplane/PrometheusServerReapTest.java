package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a killed test JVM's Prometheus leaves is undone by the next JVM: the process and its TSDB directory. */
class PrometheusServerReapTest {

    @TempDir
    Path tmp;

    private Process server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.destroyForcibly();
        }
    }

    private static long deadPid() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        return gone.pid();
    }

    @Test
    void aDeadJvmsServerIsStoppedAndItsDataDeleted() throws Exception {
        Path runs = tmp.resolve("runs");
        Path record = runs.resolve(PrometheusServer.RUN_PREFIX + deadPid());
        Path data = Files.createDirectories(tmp.resolve("test-dir/data/wal"));
        Files.writeString(data.resolve("00000000"), "segment");
        Files.createDirectories(record);
        Files.writeString(record.resolve(PrometheusServer.DATA_DIRS), data.getParent() + "\n");
        server = new ProcessBuilder("sleep", "60").start();
        StaleRuns.record(record, server.toHandle());

        assertThat(PrometheusServer.reap(runs)).isEqualTo(1);

        assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(data.getParent()).doesNotExist();
        assertThat(tmp.resolve("test-dir"))
                .as("only the data dir, not the test's dir")
                .exists();
        assertThat(record).doesNotExist();
    }

    @Test
    void aLiveJvmsServerAndDataAreLeftAlone() throws Exception {
        Path runs = tmp.resolve("runs");
        Path record = runs.resolve(
                PrometheusServer.RUN_PREFIX + ProcessHandle.current().pid());
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(record);
        Files.writeString(record.resolve(PrometheusServer.DATA_DIRS), data + "\n");
        server = new ProcessBuilder("sleep", "60").start();
        StaleRuns.record(record, server.toHandle());

        assertThat(PrometheusServer.reap(runs)).isZero();
        assertThat(server.isAlive()).isTrue();
        assertThat(data).exists();
    }
}
