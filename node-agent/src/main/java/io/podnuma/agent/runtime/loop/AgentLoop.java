package io.podnuma.agent.runtime.loop;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that owns the node agent's books: everything the agent hears is queued here and handled in order,
 * so no book needs a lock. A failing task is logged and reported, never allowed to stop the loop.
 */
public final class AgentLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

    private final ScheduledExecutorService executor;
    private final BooleanSupplier halted;
    private final BiConsumer<String, RuntimeException> failed;
    private volatile Runnable afterEach = () -> {};

    /**
     * @param halted whether the agent has stopped: queued tasks behind the stop must not run (they would undo a
     *     restore)
     * @param failed told what failed and why, after it was logged
     */
    public AgentLoop(BooleanSupplier halted, BiConsumer<String, RuntimeException> failed) {
        this.halted = halted;
        this.failed = failed;
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "podnuma-agent-loop");
            t.setDaemon(true);
            return t;
        });
        // A stop drops what is scheduled for later (a retry of failed writes, up to a reconcile period away): a
        // stopped agent runs nothing more anyway, and waiting for it held the stop up to close()'s 10 s limit.
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.executor = e;
    }

    /**
     * Runs after every task on the loop thread (also after one that failed): publishes what the books say to readers
     * on other threads.
     */
    public void afterEach(Runnable hook) {
        this.afterEach = hook;
    }

    /** Queues {@code task}; {@code what} names it in the log when it fails. */
    public void execute(String what, Runnable task) {
        executor.execute(() -> guarded(what, task));
    }

    /** Queues {@code task} even after the stop (bookkeeping that writes nothing). */
    public void executeAlways(Runnable task) {
        executor.execute(() -> {
            try {
                task.run();
            } finally {
                published();
            }
        });
    }

    public void schedule(String what, Runnable task, long delayMillis) {
        executor.schedule(() -> guarded(what, task), delayMillis, TimeUnit.MILLISECONDS);
    }

    public ScheduledFuture<?> every(String what, Runnable task, long periodMillis) {
        return executor.scheduleWithFixedDelay(
                () -> guarded(what, task), periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code c} on the loop and waits for its answer; its exception is rethrown here. */
    public <T> T call(Callable<T> c) {
        Future<T> f = executor.submit(() -> {
            try {
                return c.call();
            } finally {
                published();
            }
        });
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** {@link #call} for a task without an answer. */
    public void run(Runnable task) {
        call(() -> {
            task.run();
            return null;
        });
    }

    private void guarded(String what, Runnable r) {
        if (halted.getAsBoolean()) {
            return;
        }
        try {
            r.run();
        } catch (RuntimeException e) {
            // One bad input must not stop the loop that pins every other container.
            LOG.error("handling {} failed", what, e);
            failed.accept(what, e);
        } finally {
            published();
        }
    }

    private void published() {
        try {
            afterEach.run();
        } catch (RuntimeException e) {
            LOG.error("publishing the books after a task failed", e);
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
