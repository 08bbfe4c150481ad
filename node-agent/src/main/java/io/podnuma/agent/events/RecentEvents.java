package io.podnuma.agent.events;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Events written lately, by what makes two of them the same (object, type, reason, message), so a repeat updates
 * the existing Event. Bounded (least recently used go first). Used by the recorder's worker thread only.
 */
final class RecentEvents {

    /** What makes two events the same. */
    record Key(EventTarget target, EventType type, EventReason reason, String message) {}

    /** An Event that exists in the API. */
    record Written(String namespace, String name, int count, Instant last) {}

    private final Duration window;
    private final Map<Key, Written> entries;

    RecentEvents(Duration window, int maxEntries) {
        this.window = window;
        this.entries = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Written> eldest) {
                return size() > maxEntries;
            }
        };
    }

    /** The Event to update for a repeat at {@code at}: one written with the same key within the window before it. */
    Optional<Written> find(Key key, Instant at) {
        Written written = entries.get(key);
        if (written == null) {
            return Optional.empty();
        }
        if (Duration.between(written.last(), at).compareTo(window) > 0) {
            entries.remove(key);
            return Optional.empty();
        }
        return Optional.of(written);
    }

    void put(Key key, Written written) {
        entries.put(key, written);
    }

    void remove(Key key) {
        entries.remove(key);
    }
}
