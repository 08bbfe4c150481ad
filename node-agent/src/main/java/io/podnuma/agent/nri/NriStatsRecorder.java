package io.podnuma.agent.nri;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The plugin's counters, written from its threads, read as {@link NriStats}. */
final class NriStatsRecorder {

    private final Map<String, Map<NriRequestResult, LongAdder>> requests = new ConcurrentHashMap<>();
    private final AtomicLong lastRequestNanos = new AtomicLong();
    private final AtomicLong connects = new AtomicLong();
    private final AtomicLong failedConnects = new AtomicLong();

    void answered(String method, NriRequestResult result, long nanos) {
        requests.computeIfAbsent(method, m -> {
                    Map<NriRequestResult, LongAdder> byResult = new EnumMap<>(NriRequestResult.class);
                    for (NriRequestResult r : NriRequestResult.values()) {
                        byResult.put(r, new LongAdder());
                    }
                    return byResult;
                })
                .get(result)
                .increment();
        lastRequestNanos.set(nanos);
    }

    void connected() {
        connects.incrementAndGet();
    }

    void connectFailed() {
        failedConnects.incrementAndGet();
    }

    NriStats snapshot() {
        Map<String, Map<NriRequestResult, Long>> copy = new TreeMap<>();
        requests.forEach((method, byResult) -> {
            Map<NriRequestResult, Long> counts = new EnumMap<>(NriRequestResult.class);
            byResult.forEach((r, n) -> counts.put(r, n.sum()));
            copy.put(method, Map.copyOf(counts));
        });
        long c = connects.get();
        return new NriStats(copy, lastRequestNanos.get(), c, Math.max(0, c - 1), failedConnects.get());
    }
}
