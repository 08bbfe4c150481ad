package io.podnuma.agent.runtime.loop;

import io.podnuma.agent.pods.PodFeed;
import io.podnuma.agent.pods.PodRecord;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What feeds the {@link AgentLoop} and in which order it starts: the recovery (waited for), the pod feed, a waiter
 * for the first full pod list (the API server may be away for long: the checkpoint's pins hold meanwhile), the
 * reconcile tick. Stopping ends the tick and the waiter before the last task, so nothing runs behind it.
 */
public final class Lifecycle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Lifecycle.class);

    /** The steps the sources trigger; each runs on the loop thread. */
    public record Steps(
            Runnable recover, PodFeed.Listener pods, Consumer<List<PodRecord>> firstList, Runnable reconcile) {}

    private final AgentLoop loop;
    private final PodFeed feed;
    private final String nodeName;
    private final Duration reconcilePeriod;
    private final Duration syncTimeoutLog;

    private ScheduledFuture<?> ticker;
    private volatile Thread syncWaiter;

    public Lifecycle(AgentLoop loop, PodFeed feed, String nodeName, Duration reconcilePeriod, Duration syncTimeoutLog) {
        this.loop = loop;
        this.feed = feed;
        this.nodeName = nodeName;
        this.reconcilePeriod = reconcilePeriod;
        this.syncTimeoutLog = syncTimeoutLog;
    }

    /** Runs the recovery, starts the sources and returns; the first list follows when it arrives. */
    public void start(Steps steps) {
        loop.run(steps.recover());
        feed.start(new PodFeed.Listener() {
            @Override
            public void changed(PodRecord pod) {
                loop.execute("pod update", () -> steps.pods().changed(pod));
            }

            @Override
            public void deleted(String uid) {
                loop.execute("pod deletion", () -> steps.pods().deleted(uid));
            }
        });
        Thread waiter = new Thread(() -> awaitFirstList(steps.firstList()), "podnuma-agent-sync");
        waiter.setDaemon(true);
        syncWaiter = waiter;
        waiter.start();
        ticker = loop.every("reconcile", steps.reconcile(), reconcilePeriod.toMillis());
    }

    private void awaitFirstList(Consumer<List<PodRecord>> firstList) {
        try {
            while (!feed.awaitSynced(syncTimeoutLog)) {
                LOG.warn(
                        "the pod list of node {} has not arrived after {}; pinning the pods of the checkpoint "
                                + "meanwhile",
                        nodeName,
                        syncTimeoutLog);
            }
            loop.execute("full sync", () -> firstList.accept(feed.list()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the tick and the waiter, then runs {@code last} on the loop and waits for it. */
    public void stop(Runnable last) {
        if (ticker != null) {
            ticker.cancel(false);
        }
        Thread waiter = syncWaiter;
        if (waiter != null) {
            waiter.interrupt();
        }
        loop.run(last);
    }

    @Override
    public void close() {
        feed.close();
        loop.close();
    }
}
