package io.podnuma.agent.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the agent's Events as core/v1 Events, so {@code kubectl describe pod} and {@code kubectl describe node} show
 * them (source {@value #COMPONENT} on the node, reporting component and instance set the same way).
 *
 * <p>{@link #record} returns at once and never throws: it takes a token from the object's bucket, then queues the
 * event for one worker thread; an empty bucket or a full queue drops the event and counts it. The worker folds a
 * repeat of the same object, type, reason and message (within the aggregation window of the previous one) into the
 * existing Event by raising its count and lastTimestamp; API failures are retried with backoff, then dropped and
 * counted.
 */
public final class KubeEventRecorder implements EventSink, AutoCloseable {

    /** {@code source.component} and {@code reportingComponent} of every Event. */
    public static final String COMPONENT = "podnuma-agent";

    /** Messages are cut to this many characters (the events.k8s.io limit for a note). */
    public static final int MAX_MESSAGE_LENGTH = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(KubeEventRecorder.class);
    private static final int MAX_NAME_LENGTH = 253;
    private static final int MAX_TRACKED = 4096;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How long the idle worker waits for an event before it looks at {@link #close()} again (close also wakes it). */
    private static final long IDLE_WAIT_SECONDS = 5;

    /**
     * Put in the queue by {@link #close()} to wake an idle worker. Not an interrupt: an event queued by a
     * {@code record} racing with close is still written, since the worker drains the queue before it stops.
     */
    private static final Pending WAKE = new Pending(null, null, null, "", Instant.EPOCH);

    private record Pending(EventTarget target, EventType type, EventReason reason, String message, Instant at) {}

    private enum Outcome {
        DONE,
        GONE,
        FAILED
    }

    private final EventApi api;
    private final String nodeName;
    private final EventRecorderSettings settings;
    private final InstantSource clock;
    private final ObjectRateLimiter limiter;
    private final RecentEvents recent;
    private final BlockingQueue<Pending> queue;
    private final Thread worker;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong unfinished = new AtomicLong();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong updated = new AtomicLong();
    private final AtomicLong rateLimited = new AtomicLong();
    private final AtomicLong queueFull = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private long lastNameNanos;

    private KubeEventRecorder(EventApi api, String nodeName, EventRecorderSettings settings, InstantSource clock) {
        this.api = Objects.requireNonNull(api, "api");
        this.nodeName = new NodeRef(nodeName).name();
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limiter = new ObjectRateLimiter(settings.burst(), settings.refillEvery(), clock, MAX_TRACKED);
        this.recent = new RecentEvents(settings.aggregationWindow(), MAX_TRACKED);
        this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
        this.worker = new Thread(this::work, "event-recorder");
        worker.setDaemon(true);
    }

    /** A started recorder with the default settings, writing as the agent of {@code nodeName}. */
    public static KubeEventRecorder start(KubernetesClient client, String nodeName) {
        return start(client, nodeName, EventRecorderSettings.defaults());
    }

    public static KubeEventRecorder start(KubernetesClient client, String nodeName, EventRecorderSettings settings) {
        return start(new KubeEventApi(client, REQUEST_TIMEOUT), nodeName, settings, InstantSource.system());
    }

    static KubeEventRecorder start(EventApi api, String nodeName, EventRecorderSettings settings, InstantSource clock) {
        KubeEventRecorder recorder = new KubeEventRecorder(api, nodeName, settings, clock);
        recorder.worker.start();
        return recorder;
    }

    @Override
    public void record(EventTarget target, EventType type, EventReason reason, String message) {
        try {
            if (target == null || type == null || reason == null) {
                discarded.incrementAndGet();
                LOG.warn("event dropped: target, type and reason are required, got {}, {}, {}", target, type, reason);
                return;
            }
            if (closed.get()) {
                discarded.incrementAndGet();
                LOG.debug("event {} on {} dropped: recorder closed", reason, target);
                return;
            }
            if (!limiter.tryAcquire(target)) {
                rateLimited.incrementAndGet();
                LOG.debug("event {} on {} dropped: rate limit of the object", reason, target);
                return;
            }
            unfinished.incrementAndGet();
            if (!queue.offer(new Pending(target, type, reason, shorten(message), clock.instant()))) {
                unfinished.decrementAndGet();
                queueFull.incrementAndGet();
                LOG.debug("event {} on {} dropped: queue full", reason, target);
            }
        } catch (RuntimeException e) {
            discarded.incrementAndGet();
            LOG.warn("event {} on {} dropped: {}", reason, target, e.toString());
        }
    }

    public EventRecorderStats stats() {
        return new EventRecorderStats(
                created.get(), updated.get(), rateLimited.get(), queueFull.get(), failed.get(), discarded.get());
    }

    /** Waits until every queued event has been written or dropped; false on timeout. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (unfinished.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Stops taking events, lets the worker write what is queued for up to the drain timeout, then stops it. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        queue.offer(WAKE); // a full queue needs no waking: the worker is busy and sees the close after it
        try {
            worker.join(Math.max(1, settings.drainTimeout().toMillis()));
            if (worker.isAlive()) {
                worker.interrupt();
                worker.join(1000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = (int) queue.stream().filter(p -> p != WAKE).count();
        queue.clear();
        if (left > 0) {
            discarded.addAndGet(left);
            unfinished.addAndGet(-left);
            LOG.warn("{} events dropped at close: not written within {}", left, settings.drainTimeout());
        }
    }

    private void work() {
        try {
            while (!(closed.get() && queue.isEmpty())) {
                // An idle agent must not wake 20 times a second for nothing: close() ends this wait with WAKE.
                Pending pending = queue.poll(IDLE_WAIT_SECONDS, TimeUnit.SECONDS);
                if (pending == null || pending == WAKE) {
                    continue;
                }
                try {
                    write(pending);
                } catch (InterruptedException e) {
                    discarded.incrementAndGet();
                    return;
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    LOG.warn("event {} on {} dropped: {}", pending.reason(), pending.target(), e.toString());
                } finally {
                    unfinished.decrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            // close() gave up waiting: what is left is counted there
        }
    }

    private void write(Pending p) throws InterruptedException {
        RecentEvents.Key key = new RecentEvents.Key(p.target(), p.type(), p.reason(), p.message());
        Optional<RecentEvents.Written> prior = recent.find(key, p.at());
        if (prior.isPresent()) {
            RecentEvents.Written w = prior.get();
            int count = w.count() + 1;
            Outcome outcome = attempt(p, true, () -> api.updateCount(w.namespace(), w.name(), count, p.at()));
            if (outcome == Outcome.DONE) {
                recent.put(key, new RecentEvents.Written(w.namespace(), w.name(), count, p.at()));
                updated.incrementAndGet();
                return;
            }
            recent.remove(key);
            if (outcome == Outcome.FAILED) {
                failed.incrementAndGet();
                return;
            }
            // GONE: the Event expired or was deleted; start a new one
        }
        String[] name = new String[1];
        Outcome outcome = attempt(p, false, () -> {
            name[0] = newName(p.target());
            api.create(event(p, name[0]));
        });
        if (outcome == Outcome.DONE) {
            recent.put(key, new RecentEvents.Written(p.target().eventNamespace(), name[0], 1, p.at()));
            created.incrementAndGet();
        } else {
            failed.incrementAndGet();
        }
    }

    private Outcome attempt(Pending p, boolean notFoundIsGone, Runnable call) throws InterruptedException {
        Duration backoff = settings.initialBackoff();
        for (int attempt = 1; ; attempt++) {
            try {
                call.run();
                return Outcome.DONE;
            } catch (KubernetesClientException e) {
                if (notFoundIsGone && e.getCode() == 404) {
                    return Outcome.GONE;
                }
                if (!retryable(e.getCode()) || attempt >= settings.maxAttempts()) {
                    LOG.warn(
                            "event {} on {} dropped after {} tries: HTTP {}: {}",
                            p.reason(),
                            p.target(),
                            attempt,
                            e.getCode(),
                            e.getMessage());
                    return Outcome.FAILED;
                }
            }
            Thread.sleep(backoff.toMillis());
            backoff = backoff.multipliedBy(2).compareTo(settings.maxBackoff()) > 0
                    ? settings.maxBackoff()
                    : backoff.multipliedBy(2);
        }
    }

    /** No response (0), a name clash on create (409), throttling (429) and server errors are worth another try. */
    private static boolean retryable(int code) {
        return code == 0 || code == 409 || code == 429 || code >= 500;
    }

    private Event event(Pending p, String name) {
        EventTarget t = p.target();
        String time = timestamp(p.at());
        return new EventBuilder()
                .withNewMetadata()
                .withNamespace(t.eventNamespace())
                .withName(name)
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion("v1")
                .withKind(t.kind())
                .withNamespace(t.namespace().isEmpty() ? null : t.namespace())
                .withName(t.name())
                .withUid(t.uid())
                .endInvolvedObject()
                .withType(p.type().apiValue())
                .withReason(p.reason().value())
                .withMessage(p.message())
                .withNewSource()
                .withComponent(COMPONENT)
                .withHost(nodeName)
                .endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(nodeName)
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .build();
    }

    /** {@code <object name>.<hex nanoseconds>}, unique per recorder even for two events in the same nanosecond. */
    private String newName(EventTarget target) {
        Instant now = clock.instant();
        long nanos = Math.max(now.getEpochSecond() * 1_000_000_000L + now.getNano(), lastNameNanos + 1);
        lastNameNanos = nanos;
        String suffix = "." + Long.toHexString(nanos);
        String base = target.name();
        if (base.length() + suffix.length() > MAX_NAME_LENGTH) {
            base = base.substring(0, MAX_NAME_LENGTH - suffix.length()).replaceAll("[-.]+$", "");
        }
        return base + suffix;
    }

    static String timestamp(Instant at) {
        return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }

    private static String shorten(String message) {
        if (message == null) {
            return "";
        }
        return message.length() <= MAX_MESSAGE_LENGTH ? message : message.substring(0, MAX_MESSAGE_LENGTH - 3) + "...";
    }
}
