package io.podnuma.testkit;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Polls until a value is there, the way the scenarios and the demo wait for the cluster to get somewhere. */
public final class Waits {

    private static final long POLL_MILLIS = 250;

    private Waits() {}

    /**
     * The first value {@code read} gives within {@code timeout}; else an {@link AssertionError} that says what was
     * awaited ({@code what} is read only then, so it can say what was there instead).
     */
    public static <T> T await(Duration timeout, Supplier<String> what, Supplier<Optional<T>> read)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> v = read.get();
            if (v.isPresent()) {
                return v.get();
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        }
        throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what.get());
    }

    /** {@link #await(Duration, Supplier, Supplier)} with a fixed description. */
    public static <T> T await(Duration timeout, String what, Supplier<Optional<T>> read) throws InterruptedException {
        return await(timeout, () -> what, read);
    }
}
