package io.podnuma.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand (for code that takes an {@link InstantSource}). */
public final class MutableClock implements InstantSource {

    private final AtomicReference<Instant> now;
    private final AtomicLong reads = new AtomicLong();

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /**
     * How often the time was read so far. A test that moved the clock waits for readings after the move to know that
     * the code under test has looked at the new time, instead of sleeping and hoping it did.
     */
    public long reads() {
        return reads.get();
    }

    @Override
    public Instant instant() {
        // Counted before the time is read: a reading counted after a move sees the moved time.
        reads.incrementAndGet();
        return now.get();
    }
}
