package io.podnuma.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CoalescerTest {

    static final long INTERVAL = 1_000;

    /** A single-threaded scheduler on a fake clock: tasks run when the test advances time past their due time. */
    static final class ManualScheduler implements Coalescer.Scheduler {
        record Task(long due, long seq, Runnable run) {}

        final PriorityQueue<Task> queue =
                new PriorityQueue<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
        long now;
        long seq;

        @Override
        public void schedule(Runnable task, long delayNanos) {
            queue.add(new Task(now + delayNanos, seq++, task));
        }

        void advanceTo(long time) {
            while (!queue.isEmpty() && queue.peek().due() <= time) {
                Task t = queue.poll();
                now = Math.max(now, t.due());
                t.run().run();
            }
            now = time;
        }
    }

    record Call(long at, String value) {}

    final ManualScheduler scheduler = new ManualScheduler();
    final List<Call> calls = new ArrayList<>();
    final List<RuntimeException> failures = new ArrayList<>();
    int failuresLeft;

    final Coalescer<String> coalescer = new Coalescer<>(
            INTERVAL,
            scheduler,
            () -> scheduler.now,
            v -> {
                calls.add(new Call(scheduler.now, v));
                if (failuresLeft > 0) {
                    failuresLeft--;
                    throw new IllegalStateException("apiserver unavailable");
                }
            },
            failures::add);

    @Test
    void theFirstValueGoesOutAtOnce() {
        coalescer.submit("a");
        scheduler.advanceTo(0);

        assertThat(calls).containsExactly(new Call(0, "a"));
        assertThat(coalescer.idle()).isTrue();
    }

    @Test
    void aBurstEndsInOneCallWithTheLatestValueOneIntervalLater() {
        coalescer.submit("a");
        scheduler.advanceTo(0);
        for (int i = 1; i <= 50; i++) {
            scheduler.advanceTo(i * 10L);
            coalescer.submit("v" + i);
        }
        assertThat(coalescer.idle()).isFalse();

        scheduler.advanceTo(10 * INTERVAL);

        assertThat(calls).containsExactly(new Call(0, "a"), new Call(INTERVAL, "v50"));
        assertThat(coalescer.idle()).isTrue();
    }

    @Test
    void aValueAfterAQuietIntervalGoesOutAtOnce() {
        coalescer.submit("a");
        scheduler.advanceTo(5 * INTERVAL);
        coalescer.submit("b");
        scheduler.advanceTo(5 * INTERVAL);

        assertThat(calls).containsExactly(new Call(0, "a"), new Call(5 * INTERVAL, "b"));
    }

    @Test
    void aFailedValueIsRetriedAfterAnIntervalUnlessANewerOneArrived() {
        failuresLeft = 2;
        coalescer.submit("a");
        scheduler.advanceTo(0);
        scheduler.advanceTo(INTERVAL);
        assertThat(calls).containsExactly(new Call(0, "a"), new Call(INTERVAL, "a"));

        coalescer.submit("b"); // replaces "a", which failed twice
        scheduler.advanceTo(5 * INTERVAL);

        assertThat(calls).containsExactly(new Call(0, "a"), new Call(INTERVAL, "a"), new Call(2 * INTERVAL, "b"));
        assertThat(failures).hasSize(2).allMatch(e -> e.getMessage().equals("apiserver unavailable"));
        assertThat(coalescer.idle()).isTrue();
    }

    @Test
    void randomSubmissionsNeverCallTwiceWithinAnIntervalAndTheLastValueAlwaysGoesOut() {
        Random rnd = new Random(5526);
        for (int round = 0; round < 200; round++) {
            calls.clear();
            long t = scheduler.now;
            String last = null;
            int n = 1 + rnd.nextInt(40);
            for (int i = 0; i < n; i++) {
                t += rnd.nextInt((int) (2 * INTERVAL));
                scheduler.advanceTo(t);
                last = "r" + round + "-" + i;
                coalescer.submit(last);
            }
            scheduler.advanceTo(t + 2 * INTERVAL);

            assertThat(calls).isNotEmpty();
            assertThat(calls.getLast().value()).isEqualTo(last);
            for (int i = 1; i < calls.size(); i++) {
                assertThat(calls.get(i).at() - calls.get(i - 1).at()).isGreaterThanOrEqualTo(INTERVAL);
            }
            assertThat(calls.size()).isLessThanOrEqualTo(n);
            assertThat(coalescer.idle()).isTrue();
            scheduler.advanceTo(scheduler.now + 2 * INTERVAL); // next round starts after a quiet interval
        }
    }
}
