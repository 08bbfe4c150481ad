package io.podnuma.agent.runtime.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.HostCheckpointFilesExcept;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint's fsyncs off the loop thread: a burst served by one, none lost, a failure told, a stop flushing. */
class CheckpointSyncTest {

    @TempDir
    Path dir;

    /** Counts the file fsyncs; the first waits until released, as one behind etcd's writes does. */
    private static final class SlowSync extends HostCheckpointFilesExcept {
        final AtomicInteger syncs = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean fail;

        @Override
        public void sync(Path file) throws IOException {
            if (syncs.incrementAndGet() == 1) {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (fail) {
                throw new IOException("Input/output error");
            }
        }

        @Override
        public void syncDirectory(Path d) {}
    }

    @Test
    void requestsDuringAnFsyncAreServedByOneMoreAndTheStopWaitsForIt() throws Exception {
        SlowSync files = new SlowSync();
        List<UncheckedIOException> failures = new CopyOnWriteArrayList<>();
        CheckpointSync sync = new CheckpointSync(new CheckpointStore(dir, files), failures::add);

        sync.request();
        assertThat(files.entered.await(10, TimeUnit.SECONDS)).isTrue();
        sync.request();
        sync.request();
        sync.request();
        files.release.countDown();
        sync.close();

        assertThat(files.syncs)
                .as("the one running, then one for the three that came meanwhile")
                .hasValue(2);
        assertThat(failures).isEmpty();
    }

    @Test
    void aFailedFsyncIsToldWithTheFile() throws Exception {
        SlowSync files = new SlowSync();
        files.fail = true;
        files.release.countDown();
        List<UncheckedIOException> failures = new CopyOnWriteArrayList<>();
        CheckpointStore store = new CheckpointStore(dir, files);
        CheckpointSync sync = new CheckpointSync(store, failures::add);

        sync.request();
        sync.close();

        assertThat(failures)
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage())
                        .isEqualTo(
                                "cannot make the checkpoint " + store.file() + " durable (fsync): Input/output error"));
    }
}
