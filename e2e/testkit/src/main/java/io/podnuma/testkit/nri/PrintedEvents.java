package io.podnuma.testkit.nri;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The JSON events a Go program of the kit prints ({@code {"event":"...", ...}}), kept in order, with waits for one.
 * Not thread-safe: the owning fixture synchronizes.
 */
final class PrintedEvents {

    private final JsonLinesProcess process;
    private final String who;
    private final List<JsonNode> events = new ArrayList<>();

    PrintedEvents(JsonLinesProcess process, String who) {
        this.process = process;
        this.who = who;
    }

    /** How many events have been read so far (a start index for {@link #await}). */
    int size() {
        return events.size();
    }

    /** Every event so far. */
    List<JsonNode> all() throws InterruptedException {
        pump(Duration.ZERO);
        return List.copyOf(events);
    }

    /** The first event at index {@code from} or later named {@code event} that {@code where} accepts. */
    JsonNode await(int from, String event, Predicate<JsonNode> where, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = from;
        while (true) {
            for (; seen < events.size(); seen++) {
                JsonNode e = events.get(seen);
                if (event.equals(e.path("event").asText()) && where.test(e)) {
                    return e;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !pump(Duration.ofNanos(left))) {
                throw new AssertionError(who + " printed no matching '" + event + "' event within " + timeout
                        + (process.isAlive() ? "" : " (it has exited)") + "; events: " + events + "\n"
                        + process.logTail());
            }
        }
    }

    /** Moves what the program printed into the list, waiting up to {@code wait} for one line; false at its end. */
    boolean pump(Duration wait) throws InterruptedException {
        Optional<JsonNode> first = process.next(wait);
        if (first.isEmpty()) {
            return process.isAlive();
        }
        events.add(first.get());
        for (Optional<JsonNode> more = process.next(Duration.ZERO);
                more.isPresent();
                more = process.next(Duration.ZERO)) {
            events.add(more.get());
        }
        return true;
    }
}
