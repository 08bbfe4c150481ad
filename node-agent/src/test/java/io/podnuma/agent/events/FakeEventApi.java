package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** An in-memory Events API: keeps the Events by name, can fail on cue and can hold calls at a gate. */
final class FakeEventApi implements EventApi {

    record Call(String op, String namespace, String name, int count, Instant last) {}

    private final Map<String, Event> stored = new LinkedHashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final Deque<RuntimeException> failures = new ArrayDeque<>();
    private volatile CountDownLatch gate;
    private final CountDownLatch entered = new CountDownLatch(1);

    /** The next calls throw these, in order. */
    synchronized FakeEventApi failNext(RuntimeException... errors) {
        failures.addAll(List.of(errors));
        return this;
    }

    static KubernetesClientException http(int code) {
        return new KubernetesClientException("HTTP " + code, code, null);
    }

    /** Calls wait until {@link #release()}. */
    FakeEventApi hold() {
        gate = new CountDownLatch(1);
        return this;
    }

    void release() {
        gate.countDown();
    }

    boolean awaitFirstCall() throws InterruptedException {
        return entered.await(5, TimeUnit.SECONDS);
    }

    @Override
    public void create(Event event) {
        enter();
        synchronized (this) {
            calls.add(new Call(
                    "create",
                    event.getMetadata().getNamespace(),
                    event.getMetadata().getName(),
                    event.getCount(),
                    Instant.parse(event.getLastTimestamp())));
            failIfAsked();
            stored.put(
                    event.getMetadata().getNamespace() + "/"
                            + event.getMetadata().getName(),
                    event);
        }
    }

    @Override
    public void updateCount(String namespace, String name, int count, Instant lastTimestamp) {
        enter();
        synchronized (this) {
            calls.add(new Call("update", namespace, name, count, lastTimestamp));
            failIfAsked();
            Event event = stored.get(namespace + "/" + name);
            if (event == null) {
                throw http(404);
            }
            event.setCount(count);
            event.setLastTimestamp(KubeEventRecorder.timestamp(lastTimestamp));
        }
    }

    private void enter() {
        entered.countDown();
        CountDownLatch g = gate;
        if (g != null) {
            try {
                g.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // like the real client: no answer, interrupt flag kept
                throw new KubernetesClientException("interrupted", 0, null);
            }
        }
    }

    private void failIfAsked() {
        RuntimeException failure = failures.poll();
        if (failure != null) {
            throw failure;
        }
    }

    synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    synchronized List<Event> events() {
        return List.copyOf(stored.values());
    }

    /** Deletes every stored Event, as the API server's TTL does. */
    synchronized void expireAll() {
        stored.clear();
    }
}
