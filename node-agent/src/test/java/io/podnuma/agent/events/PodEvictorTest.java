package io.podnuma.agent.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.podnuma.agent.engine.pod.PodRef;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PodEvictorTest {

    static final PodRef POD = new PodRef("uid-1", "tenant-a", "db-0");
    static final String PDB = "Cannot evict pod as it would violate the pod's disruption budget. (The disruption"
            + " budget db does not allow evicting pods currently)";

    /** Pods by name and scripted answers to evictions; an unscripted eviction deletes the pod (201). */
    static final class FakeApi implements EvictionApi {
        final Map<String, LivePod> pods = new HashMap<>();
        final Deque<Object> answers = new ArrayDeque<>();
        final AtomicInteger gets = new AtomicInteger();
        final AtomicInteger evictions = new AtomicInteger();
        volatile CountDownLatch gate;
        volatile Runnable onEvict = () -> {};

        FakeApi with(PodRef pod) {
            pods.put(pod.name(), new LivePod(pod.uid(), false));
            return this;
        }

        /** Answers in order: an {@link Answer} or a {@link RuntimeException} to throw. */
        FakeApi answering(Object... script) {
            answers.addAll(List.of(script));
            return this;
        }

        @Override
        public synchronized Optional<LivePod> get(String namespace, String name) {
            gets.incrementAndGet();
            return Optional.ofNullable(pods.get(name));
        }

        @Override
        public Answer evict(PodRef pod) {
            CountDownLatch g = gate;
            if (g != null) {
                try {
                    g.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (this) {
                evictions.incrementAndGet();
                onEvict.run();
                Object next = answers.poll();
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                Answer answer = next == null ? new Answer(201, "") : (Answer) next;
                if (answer.code() == 201) {
                    pods.remove(pod.name());
                }
                return answer;
            }
        }
    }

    final FakeApi api = new FakeApi();
    final RecordingSink sink = new RecordingSink();
    PodEvictor evictor;

    PodEvictor start(int maxBlocked, int maxErrors) {
        evictor = new PodEvictor(
                api,
                sink,
                new EvictionSettings(
                        maxBlocked,
                        Duration.ofMillis(2),
                        maxErrors,
                        Duration.ofMillis(1),
                        Duration.ofMillis(10),
                        Duration.ofSeconds(1)));
        return evictor;
    }

    @AfterEach
    void stop() {
        if (evictor != null) {
            evictor.close();
        }
    }

    static EvictionResult await(CompletableFuture<EvictionResult> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    List<EventReason> reasons() {
        return sink.recorded().stream().map(RecordingSink.Recorded::reason).toList();
    }

    @Test
    void anAcceptedEvictionIsEvictedAndReported() throws Exception {
        api.with(POD);
        EvictionResult result = await(start(3, 3).evict(POD, "TopologyAffinityError: 6 CPUs on one NUMA node"));

        assertThat(result).isEqualTo(new EvictionResult.Evicted(POD));
        assertThat(sink.recorded())
                .containsExactly(new RecordingSink.Recorded(
                        new PodTarget(POD),
                        EventType.WARNING,
                        EventReason.POD_EVICTED,
                        "Evicted by the podnuma agent: TopologyAffinityError: 6 CPUs on one NUMA node"));
        assertThat(evictor.inProgress()).isZero();
    }

    @Test
    void aMissingTerminatingOrRecreatedPodIsAlreadyGoneAndNotTouched() throws Exception {
        start(3, 3);
        EvictionResult missing = await(evictor.evict(POD, "x"));
        assertThat(missing)
                .isInstanceOfSatisfying(
                        EvictionResult.AlreadyGone.class,
                        g -> assertThat(g.detail()).isEqualTo("pod tenant-a/db-0 no longer exists"));

        api.pods.put("db-0", new EvictionApi.LivePod("uid-1", true));
        assertThat(await(evictor.evict(POD, "x")))
                .isEqualTo(new EvictionResult.AlreadyGone(POD, "pod tenant-a/db-0 is already terminating"));

        api.pods.put("db-0", new EvictionApi.LivePod("uid-2", false));
        assertThat(await(evictor.evict(POD, "x")))
                .isEqualTo(new EvictionResult.AlreadyGone(
                        POD,
                        "pod tenant-a/db-0 is now a different pod (uid uid-2, asked to evict uid uid-1); the new pod"
                                + " is left alone"));

        assertThat(api.evictions).hasValue(0);
        assertThat(sink.recorded()).isEmpty();
    }

    @Test
    void aPodGoneBetweenReadAndEvictionIsAlreadyGone() throws Exception {
        api.with(POD).answering(new EvictionApi.Answer(404, "pods \"db-0\" not found"));
        assertThat(await(start(3, 3).evict(POD, "x"))).isInstanceOf(EvictionResult.AlreadyGone.class);
    }

    @Test
    void aConflictFromARecreatedPodEndsAsAlreadyGone() throws Exception {
        api.with(POD).answering(new EvictionApi.Answer(409, "Precondition failed: UID in precondition: uid-1"));
        api.onEvict = () -> api.pods.put("db-0", new EvictionApi.LivePod("uid-2", false));

        EvictionResult result = await(start(3, 3).evict(POD, "x"));

        assertThat(result)
                .isInstanceOfSatisfying(
                        EvictionResult.AlreadyGone.class,
                        g -> assertThat(g.detail()).contains("uid uid-2"));
        assertThat(api.evictions).hasValue(1);
        assertThat(api.pods.get("db-0").uid()).isEqualTo("uid-2");
    }

    @Test
    void aBudgetBlocksUntilTheLimitAndEveryRefusalIsReported() throws Exception {
        EvictionApi.Answer refused = new EvictionApi.Answer(429, PDB);
        api.with(POD).answering(refused, refused, refused, refused, refused);

        EvictionResult result = await(start(4, 3).evict(POD, "x"));

        assertThat(result).isEqualTo(new EvictionResult.Blocked(POD, 4, PDB));
        assertThat(api.evictions).hasValue(4);
        assertThat(sink.recorded()).hasSize(4).allSatisfy(r -> {
            assertThat(r.reason()).isEqualTo(EventReason.EVICTION_BLOCKED);
            assertThat(r.type()).isEqualTo(EventType.WARNING);
            assertThat(r.message()).isEqualTo("Eviction blocked, will retry: " + PDB);
        });
        assertThat(api.pods).containsKey("db-0");
    }

    @Test
    void aBudgetThatLetsGoEndsInEviction() throws Exception {
        api.with(POD).answering(new EvictionApi.Answer(429, PDB), new EvictionApi.Answer(429, PDB));
        assertThat(await(start(5, 3).evict(POD, "x"))).isEqualTo(new EvictionResult.Evicted(POD));
        assertThat(reasons())
                .containsExactly(EventReason.EVICTION_BLOCKED, EventReason.EVICTION_BLOCKED, EventReason.POD_EVICTED);
    }

    @Test
    void serverErrorsAndNoAnswerAreRetriedUpToTheLimit() throws Exception {
        api.with(POD)
                .answering(
                        new EvictionApi.Answer(500, "etcd leader changed"),
                        new KubernetesClientException("no answer to POST", 0, null));
        assertThat(await(start(3, 3).evict(POD, "x"))).isEqualTo(new EvictionResult.Evicted(POD));
        assertThat(api.evictions).hasValue(3);

        PodRef other = new PodRef("uid-9", "tenant-a", "db-1");
        api.with(other)
                .answering(
                        new EvictionApi.Answer(503, "unavailable"),
                        new EvictionApi.Answer(503, "unavailable"),
                        new EvictionApi.Answer(503, "still unavailable"));
        EvictionResult failed = await(evictor.evict(other, "x"));
        assertThat(failed)
                .isEqualTo(new EvictionResult.Failed(
                        other, "gave up after 3 failed tries, last: HTTP 503: still unavailable"));
        assertThat(sink.recorded().getLast().reason()).isEqualTo(EventReason.EVICTION_FAILED);
        assertThat(sink.recorded().getLast().message())
                .isEqualTo("Eviction failed: gave up after 3 failed tries, last: HTTP 503: still unavailable");
    }

    @Test
    void forbiddenFailsAtOnceAndNamesThePermission() throws Exception {
        api.with(POD).answering(new EvictionApi.Answer(403, "pods \"db-0\" is forbidden"));
        EvictionResult result = await(start(3, 3).evict(POD, "x"));

        assertThat(result)
                .isInstanceOfSatisfying(
                        EvictionResult.Failed.class,
                        f -> assertThat(f.message())
                                .isEqualTo(
                                        "the API server refused the eviction with HTTP 403: pods \"db-0\" is forbidden (the agent"
                                                + " evicts as its node, which may evict only pods bound to it; its"
                                                + " ServiceAccount needs impersonate:associated-node on"
                                                + " nodes.authentication.k8s.io and"
                                                + " impersonate-on:associated-node:create on pods/eviction, a token bound"
                                                + " to its pod, and an API server with ConstrainedImpersonation"
                                                + " (Kubernetes 1.36+), the Node authorizer and NodeRestriction)"));
        assertThat(api.evictions).hasValue(1);
        assertThat(reasons()).containsExactly(EventReason.EVICTION_FAILED);
    }

    @Test
    void aPodUidIsNeverEvictedTwiceAtOnce() throws Exception {
        api.with(POD);
        api.gate = new CountDownLatch(1);
        start(3, 3);
        CompletableFuture<EvictionResult> first = evictor.evict(POD, "first");
        CompletableFuture<EvictionResult> second = evictor.evict(POD, "second");
        assertThat(evictor.inProgress()).isEqualTo(1);
        api.gate.countDown();

        assertThat(await(first)).isEqualTo(new EvictionResult.Evicted(POD));
        assertThat(await(second)).isEqualTo(new EvictionResult.Evicted(POD));
        assertThat(api.evictions).hasValue(1);
        assertThat(sink.recorded())
                .singleElement()
                .satisfies(r -> assertThat(r.message()).endsWith(": first"));

        // Once finished, the same UID may be asked again (and is found gone).
        assertThat(await(evictor.evict(POD, "again"))).isInstanceOf(EvictionResult.AlreadyGone.class);
    }

    @Test
    void closeFailsWhatIsStillRunningAndRefusesNewWork() throws Exception {
        EvictionApi.Answer refused = new EvictionApi.Answer(429, PDB);
        api.with(POD).answering(refused);
        evictor = new PodEvictor(
                api,
                sink,
                new EvictionSettings(
                        5,
                        Duration.ofSeconds(30),
                        3,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1)));
        CompletableFuture<EvictionResult> pending = evictor.evict(POD, "x");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sink.recorded().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5); // until the first refusal is in and the retry waits 30 s
        }
        evictor.close();

        assertThat(await(pending))
                .isInstanceOfSatisfying(
                        EvictionResult.Failed.class,
                        f -> assertThat(f.message()).isEqualTo("pod evictor closed before the eviction finished"));
        assertThat(await(evictor.evict(POD, "x"))).isEqualTo(new EvictionResult.Failed(POD, "pod evictor is closed"));
        assertThat(api.evictions).hasValue(1);
    }

    @Test
    void backoffDoublesUpToTheCap() {
        EvictionSettings s = new EvictionSettings(
                3, Duration.ofSeconds(5), 3, Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(1));
        assertThat(List.of(1, 2, 3, 4, 5, 6, 30).stream()
                        .map(n -> s.backoff(s.blockedBackoff(), n))
                        .toList())
                .containsExactly(
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(40),
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(60));
    }
}
