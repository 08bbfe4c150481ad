package io.podnuma.agent.runtime.recovery;

import io.podnuma.agent.checkpoint.CheckpointStore;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Makes the checkpoint durable on a thread of its own, after the loop has replaced it and gone on to the cgroups.
 * On a disk shared with etcd an fsync waited up to 300 ms (issue 13), and the pins of a decision waited with it; a
 * crash of the agent needs only the replaced file, which every reader sees at once, and a power loss ends the
 * containers with their cpusets. Requests that come while one is queued are served by it: one fsync covers a burst.
 */
final class CheckpointSync implements AutoCloseable {

    private final CheckpointStore store;
    private final Consumer<UncheckedIOException> failed;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "podnuma-checkpoint-sync");
        t.setDaemon(true);
        return t;
    });

    /** @param failed told of an fsync that failed, on this class's thread */
    CheckpointSync(CheckpointStore store, Consumer<UncheckedIOException> failed) {
        this.store = Objects.requireNonNull(store, "store");
        this.failed = Objects.requireNonNull(failed, "failed");
    }

    /** The checkpoint was replaced: make it durable soon. */
    void request() {
        if (queued.compareAndSet(false, true)) {
            thread.execute(this::sync);
        }
    }

    private void sync() {
        // Cleared first: a replace during the fsync queues another, so the last one is never left behind.
        queued.set(false);
        try {
            store.makeDurable();
        } catch (UncheckedIOException e) {
            failed.accept(e);
        }
    }

    /** Runs the fsync still queued, then stops the thread (a clean stop leaves the checkpoint durable). */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
