package io.podnuma.agent.events;

import java.util.ArrayList;
import java.util.List;

/** An {@link EventSink} that keeps what it is given. */
final class RecordingSink implements EventSink {

    record Recorded(EventTarget target, EventType type, EventReason reason, String message) {}

    private final List<Recorded> recorded = new ArrayList<>();

    @Override
    public synchronized void record(EventTarget target, EventType type, EventReason reason, String message) {
        recorded.add(new Recorded(target, type, reason, message));
    }

    synchronized List<Recorded> recorded() {
        return List.copyOf(recorded);
    }
}
