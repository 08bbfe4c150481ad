package io.podnuma.agent.runtime.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AgentLoopTest {

    @Test
    void closeDropsTasksScheduledForLaterInsteadOfWaitingForThem() {
        AtomicBoolean ran = new AtomicBoolean();
        AgentLoop loop = new AgentLoop(() -> false, (what, e) -> {});
        // A retry of failed cgroup writes, queued a reconcile period ahead when the agent is told to stop.
        loop.schedule("retry", () -> ran.set(true), 60_000);
        long start = System.nanoTime();
        loop.close();
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMillis)
                .as("close waited for the scheduled task (its 10 s limit) instead of dropping it")
                .isLessThan(5_000);
        assertThat(ran).isFalse();
    }

    @Test
    void closeStillRunsWhatIsQueuedNow() {
        AtomicInteger ran = new AtomicInteger();
        AgentLoop loop = new AgentLoop(() -> false, (what, e) -> {});
        for (int i = 0; i < 3; i++) {
            loop.execute("task " + i, ran::incrementAndGet);
        }
        loop.close();
        assertThat(ran).hasValue(3);
    }
}
