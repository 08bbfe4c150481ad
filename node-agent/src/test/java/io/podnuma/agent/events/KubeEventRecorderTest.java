package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KubeEventRecorderTest {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    static final PodTarget POD = new PodTarget(new PodRef("uid-1", "tenant-a", "db-0"));
    static final PodTarget OTHER = new PodTarget(new PodRef("uid-2", "tenant-a", "db-1"));
    static final EventReason TAE = EventReason.TOPOLOGY_AFFINITY_ERROR;
    static final Duration WAIT = Duration.ofSeconds(10);

    final FakeEventApi api = new FakeEventApi();
    final MutableClock clock = new MutableClock(T0);
    KubeEventRecorder recorder;

    static EventRecorderSettings fast() {
        return EventRecorderSettings.defaults().withRetries(3, Duration.ofMillis(1), Duration.ofMillis(4));
    }

    KubeEventRecorder start(EventRecorderSettings settings) {
        recorder = KubeEventRecorder.start(api, "node-7", settings, clock);
        return recorder;
    }

    @AfterEach
    void stop() {
        if (recorder != null) {
            recorder.close();
        }
    }

    void idle() throws InterruptedException {
        assertThat(recorder.awaitIdle(WAIT)).as("recorder idle").isTrue();
    }

    @Test
    void aPodEventIsACoreEventInThePodsNamespaceWithSourceAndReportingSet() throws InterruptedException {
        start(fast()).warning(POD, TAE, "cannot align 6 CPUs");
        idle();

        Event e = api.events().getFirst();
        assertThat(e.getMetadata().getNamespace()).isEqualTo("tenant-a");
        assertThat(e.getMetadata().getName()).startsWith("db-0.").matches("db-0\\.[0-9a-f]+");
        assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
        assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("v1");
        assertThat(e.getInvolvedObject().getNamespace()).isEqualTo("tenant-a");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("db-0");
        assertThat(e.getInvolvedObject().getUid()).isEqualTo("uid-1");
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo("TopologyAffinityError");
        assertThat(e.getMessage()).isEqualTo("cannot align 6 CPUs");
        assertThat(e.getSource().getComponent()).isEqualTo("podnuma-agent");
        assertThat(e.getSource().getHost()).isEqualTo("node-7");
        assertThat(e.getReportingComponent()).isEqualTo("podnuma-agent");
        assertThat(e.getReportingInstance()).isEqualTo("node-7");
        assertThat(e.getFirstTimestamp()).isEqualTo("2026-11-29T10:00:00Z");
        assertThat(e.getLastTimestamp()).isEqualTo("2026-11-29T10:00:00Z");
        assertThat(e.getCount()).isEqualTo(1);
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(1, 0, 0, 0, 0, 0));
    }

    @Test
    void aNodeEventLivesInDefaultWithTheNodeNameAsUid() throws InterruptedException {
        start(fast()).normal(new NodeRef("node-7"), EventReason.CHECKPOINT_REJECTED, "checksum mismatch");
        idle();

        Event e = api.events().getFirst();
        assertThat(e.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(e.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(e.getInvolvedObject().getNamespace()).isNull();
        assertThat(e.getInvolvedObject().getUid()).isEqualTo("node-7");
        assertThat(e.getType()).isEqualTo("Normal");
    }

    @Test
    void repeatsWithinTenMinutesRaiseTheCountOfOneEvent() throws InterruptedException {
        start(fast());
        recorder.warning(POD, TAE, "same");
        idle();
        clock.advance(Duration.ofMinutes(4));
        recorder.warning(POD, TAE, "same");
        idle();
        clock.advance(Duration.ofMinutes(10)); // exactly the window after the previous repeat
        recorder.warning(POD, TAE, "same");
        idle();

        List<FakeEventApi.Call> calls = api.calls();
        assertThat(calls).extracting(FakeEventApi.Call::op).containsExactly("create", "update", "update");
        assertThat(calls)
                .extracting(FakeEventApi.Call::name)
                .containsOnly(calls.getFirst().name());
        assertThat(calls).extracting(FakeEventApi.Call::count).containsExactly(1, 2, 3);
        assertThat(calls)
                .extracting(FakeEventApi.Call::last)
                .containsExactly(T0, T0.plusSeconds(240), T0.plusSeconds(840));
        Event e = api.events().getFirst();
        assertThat(e.getCount()).isEqualTo(3);
        assertThat(e.getFirstTimestamp()).isEqualTo("2026-11-29T10:00:00Z");
        assertThat(e.getLastTimestamp()).isEqualTo("2026-11-29T10:14:00Z");
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(1, 2, 0, 0, 0, 0));
    }

    @Test
    void aRepeatAfterTheWindowStartsANewEvent() throws InterruptedException {
        start(fast());
        recorder.warning(POD, TAE, "same");
        idle();
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        recorder.warning(POD, TAE, "same");
        idle();

        assertThat(api.calls()).extracting(FakeEventApi.Call::op).containsExactly("create", "create");
        assertThat(api.events()).hasSize(2).extracting(Event::getCount).containsExactly(1, 1);
    }

    @Test
    void anotherObjectTypeReasonOrMessageIsAnotherEvent() throws InterruptedException {
        start(fast());
        recorder.warning(POD, TAE, "m");
        recorder.warning(OTHER, TAE, "m");
        recorder.normal(POD, TAE, "m");
        recorder.warning(POD, EventReason.SMT_ALIGNMENT_ERROR, "m");
        recorder.warning(POD, TAE, "m2");
        recorder.warning(new PodTarget(new PodRef("uid-recreated", "tenant-a", "db-0")), TAE, "m");
        idle();

        assertThat(api.calls())
                .extracting(FakeEventApi.Call::op)
                .containsOnly("create")
                .hasSize(6);
        assertThat(api.events()).extracting(e -> e.getMetadata().getName()).doesNotHaveDuplicates();
    }

    @Test
    void anExpiredEventIsCreatedAgain() throws InterruptedException {
        start(fast());
        recorder.warning(POD, TAE, "same");
        idle();
        api.expireAll();
        clock.advance(Duration.ofMinutes(1));
        recorder.warning(POD, TAE, "same");
        idle();

        assertThat(api.calls()).extracting(FakeEventApi.Call::op).containsExactly("create", "update", "create");
        assertThat(api.events()).singleElement().extracting(Event::getCount).isEqualTo(1);
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(2, 0, 0, 0, 0, 0));
    }

    @Test
    void aFlappingPodIsLimitedByItsOwnBucketOnly() throws InterruptedException {
        start(fast().withRateLimit(3, Duration.ofMinutes(1)));
        for (int i = 0; i < 5; i++) {
            recorder.warning(POD, EventReason.CPUSET_DRIFT_REPAIRED, "drift " + i);
        }
        recorder.warning(OTHER, EventReason.CPUSET_DRIFT_REPAIRED, "drift");
        idle();
        assertThat(api.events())
                .extracting(Event::getMessage)
                .containsExactly("drift 0", "drift 1", "drift 2", "drift");
        assertThat(recorder.stats().rateLimited()).isEqualTo(2);

        clock.advance(Duration.ofSeconds(59));
        recorder.warning(POD, EventReason.CPUSET_DRIFT_REPAIRED, "drift 5");
        clock.advance(Duration.ofSeconds(1));
        recorder.warning(POD, EventReason.CPUSET_DRIFT_REPAIRED, "drift 6");
        recorder.warning(POD, EventReason.CPUSET_DRIFT_REPAIRED, "drift 7");
        idle();
        assertThat(api.events())
                .extracting(Event::getMessage)
                .contains("drift 6")
                .doesNotContain("drift 5", "drift 7");
        assertThat(recorder.stats().rateLimited()).isEqualTo(4);

        clock.advance(Duration.ofHours(1)); // refills to the burst, not beyond
        for (int i = 0; i < 5; i++) {
            recorder.warning(POD, EventReason.CPUSET_DRIFT_REPAIRED, "later " + i);
        }
        idle();
        assertThat(recorder.stats().rateLimited()).isEqualTo(6);
    }

    @Test
    void aFullQueueDropsAndCountsWithoutBlockingTheCaller() throws InterruptedException {
        api.hold();
        start(fast().withQueueCapacity(2).withRateLimit(100, Duration.ofSeconds(1)));
        recorder.warning(POD, TAE, "0");
        assertThat(api.awaitFirstCall()).isTrue(); // the worker holds event 0
        long begin = System.nanoTime();
        for (int i = 1; i <= 5; i++) {
            recorder.warning(POD, TAE, String.valueOf(i));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(1));
        assertThat(recorder.stats().queueFull()).isEqualTo(3);

        api.release();
        idle();
        assertThat(api.events()).extracting(Event::getMessage).containsExactly("0", "1", "2");
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(3, 0, 0, 3, 0, 0));
    }

    @Test
    void serverErrorsAreRetriedThenTheEventIsDropped() throws InterruptedException {
        start(fast());
        api.failNext(FakeEventApi.http(500), FakeEventApi.http(0));
        recorder.warning(POD, TAE, "survives two failures");
        idle();
        assertThat(api.calls()).hasSize(3);
        assertThat(api.events()).extracting(Event::getMessage).containsExactly("survives two failures");

        api.failNext(FakeEventApi.http(503), FakeEventApi.http(503), FakeEventApi.http(503));
        recorder.warning(POD, TAE, "three failures");
        idle();
        assertThat(api.calls()).hasSize(6);
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(1, 0, 0, 0, 1, 0));

        api.failNext(FakeEventApi.http(403));
        recorder.warning(POD, TAE, "forbidden is not retried");
        idle();
        assertThat(api.calls()).hasSize(7);
        assertThat(recorder.stats().failed()).isEqualTo(2);
    }

    @Test
    void aFailedRepeatKeepsTheCountTheServerHas() throws InterruptedException {
        start(fast());
        recorder.warning(POD, TAE, "same");
        idle();
        api.failNext(FakeEventApi.http(500), FakeEventApi.http(500), FakeEventApi.http(500));
        recorder.warning(POD, TAE, "same");
        idle();
        recorder.warning(POD, TAE, "same");
        idle();

        assertThat(api.events()).hasSize(2).extracting(Event::getCount).containsExactly(1, 1);
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(2, 0, 0, 0, 1, 0));
    }

    @Test
    void neverThrowsToTheCaller() throws InterruptedException {
        start(fast());
        recorder.record(null, EventType.WARNING, TAE, "m");
        recorder.record(POD, null, TAE, "m");
        recorder.record(POD, EventType.WARNING, null, "m");
        recorder.record(POD, EventType.WARNING, TAE, null);
        idle();
        api.failNext(new IllegalStateException("client closed"));
        recorder.warning(OTHER, TAE, "unexpected failure");
        recorder.warning(OTHER, TAE, "next one still written");
        idle();

        assertThat(api.events()).extracting(Event::getMessage).containsExactly("", "next one still written");
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(2, 0, 0, 0, 1, 3));
    }

    @Test
    void longMessagesAreCut() throws InterruptedException {
        start(fast()).warning(POD, TAE, "x".repeat(5000));
        idle();
        String message = api.events().getFirst().getMessage();
        assertThat(message).hasSize(KubeEventRecorder.MAX_MESSAGE_LENGTH).endsWith("xx...");
    }

    @Test
    void closeWritesWhatIsQueuedThenRefusesMore() {
        api.hold();
        start(fast().withRateLimit(100, Duration.ofSeconds(1)));
        for (int i = 0; i < 5; i++) {
            recorder.warning(POD, TAE, String.valueOf(i));
        }
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            api.release();
        });
        recorder.close();
        recorder.warning(POD, TAE, "after close");

        assertThat(api.events()).extracting(Event::getMessage).containsExactly("0", "1", "2", "3", "4");
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(5, 0, 0, 0, 0, 1));
    }

    @Test
    void closeGivesUpAfterTheDrainTimeoutAndCountsTheRest() throws InterruptedException {
        api.hold();
        start(fast().withRateLimit(100, Duration.ofSeconds(1)).withDrainTimeout(Duration.ofMillis(200)));
        for (int i = 0; i < 5; i++) {
            recorder.warning(POD, TAE, String.valueOf(i));
        }
        assertThat(api.awaitFirstCall()).isTrue();
        long begin = System.nanoTime();
        recorder.close();
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(3));

        EventRecorderStats stats = recorder.stats();
        assertThat(stats.created()).isZero();
        assertThat(stats.discarded()).isEqualTo(5);
        assertThat(recorder.awaitIdle(Duration.ZERO)).isTrue();
    }

    @Test
    void closingAnIdleRecorderWakesItsWorkerInsteadOfWaitingOutItsIdleWait() throws InterruptedException {
        start(fast().withDrainTimeout(Duration.ofSeconds(20))).warning(POD, TAE, "one");
        idle();
        Thread.sleep(50); // the worker is back in its wait for the next event

        long begin = System.nanoTime();
        recorder.close();

        // The worker waits seconds for an event when idle; close() must not wait for that wait, nor the drain timeout.
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(2));
        assertThat(recorder.stats()).isEqualTo(new EventRecorderStats(1, 0, 0, 0, 0, 0));
    }
}
