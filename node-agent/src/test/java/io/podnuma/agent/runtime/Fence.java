package io.podnuma.agent.runtime;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * What makes an in-process agent incarnation "crash" as a killed process would: every call it makes to the host or
 * the state directory goes through its fence; at the armed point (the N-th call of one kind, before or after it
 * takes effect), or when the driver kills it, the fence closes, and from then on every call of that incarnation
 * throws {@link Crashed} (an Error: the agent's handlers of failed writes and failed tasks never see it, so nothing
 * of that incarnation retries, cleans up or logs behind the crash). Calls are serialised with the kill, so a call
 * in flight when the driver kills finishes first, as a system call does under SIGKILL.
 */
final class Fence {

    /** The kinds of calls an incarnation makes to what outlives it. */
    enum Port {
        CGROUP_WRITE,
        CGROUP_READ,
        CGROUP_SCAN,
        CHECKPOINT_TEMP,
        CHECKPOINT_DATA,
        CHECKPOINT_RENAME,
        CHECKPOINT_OTHER,
        POD_LIST,
        NODE_STATE
    }

    /** Whether the armed call takes effect before the crash. */
    enum When {
        BEFORE,
        AFTER
    }

    /** Crash at the {@code nth} call (counted from the incarnation's start) of {@code port}. */
    record CrashPoint(Port port, int nth, When when) {}

    /** The incarnation is dead; thrown from every call it makes after its crash point. */
    static final class Crashed extends Error {
        private static final long serialVersionUID = 1L;

        Crashed(String where) {
            super(where, null, false, false);
        }
    }

    /** A call to the host or the state directory. */
    interface Call<T, E extends Exception> {
        T run() throws E;
    }

    private final Map<Port, Integer> counts = new EnumMap<>(Port.class);
    private CrashPoint armed;
    private String diedAt;
    /** Whether it died at the armed call (not by the driver's kill). */
    private boolean struck;

    synchronized void arm(CrashPoint point) {
        armed = point;
    }

    synchronized int count(Port port) {
        return counts.getOrDefault(port, 0);
    }

    /** The driver's kill: nothing of the incarnation runs after it. */
    synchronized void kill(String why) {
        if (diedAt == null) {
            diedAt = why;
        }
    }

    /** Whether the incarnation died at its armed point: a crash the run reached, not a kill instead of it. */
    synchronized boolean struck() {
        return struck;
    }

    synchronized boolean dead() {
        return diedAt != null;
    }

    synchronized Optional<String> diedAt() {
        return Optional.ofNullable(diedAt);
    }

    synchronized <T, E extends Exception> T call(Port port, Call<T, E> call) throws E {
        if (diedAt != null) {
            throw new Crashed("dead since " + diedAt);
        }
        int n = counts.merge(port, 1, Integer::sum);
        boolean here = armed != null && armed.port() == port && armed.nth() == n;
        if (here && armed.when() == When.BEFORE) {
            struck = true;
            diedAt = "before " + port + " #" + n;
            throw new Crashed(diedAt);
        }
        T result = call.run();
        if (here) {
            struck = true;
            diedAt = "after " + port + " #" + n;
            throw new Crashed(diedAt);
        }
        return result;
    }
}
