package io.podnuma.operator.controller;

import io.podnuma.operator.election.Candidate;
import io.podnuma.operator.election.ElectorState;
import io.podnuma.operator.election.LeaseElection;
import io.podnuma.operator.election.LeasePort;
import io.podnuma.operator.election.LeaseRead;
import io.podnuma.operator.election.LeaseWrite;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell around {@link LeaseElection}: an attempt every {@code retryPeriod} on a thread of its own (jittered while
 * standing by, so replicas started together do not collide at every attempt), telling {@link Leadership} when this
 * replica starts or stops leading. Replaces the client's elector, which lets a standby take the Lease once the
 * holder's {@code renewTime} plus {@code leaseDuration} is past on the standby's wall clock: wrong by the skew between
 * the two machines.
 */
final class LeaseElector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseElector.class);
    /** client-go's jitter of the acquire loop: a standby waits 1 to 2.2 retry periods. */
    private static final double JITTER = 1.2;

    /** What leading means to the caller. Both run on the elector's thread. */
    interface Leadership {
        /** This replica holds the Lease from now (it may still refuse to lead: the fence). */
        void start();

        /** This replica led and must not any more; the elector has stopped. */
        void stop(String why);
    }

    private final LeasePort leases;
    private final Candidate me;
    private final LongSupplier nanos;
    private final InstantSource wall;
    private final Leadership leadership;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile ElectorState state = ElectorState.INITIAL;
    private volatile Optional<String> holder = Optional.empty();
    private volatile boolean failing;
    private volatile Thread thread;

    /**
     * @param nanos the monotonic clock every wait is counted on ({@code System::nanoTime})
     * @param wall the wall clock of the times written on the Lease
     */
    LeaseElector(LeasePort leases, Candidate me, LongSupplier nanos, InstantSource wall, Leadership leadership) {
        this.leases = leases;
        this.me = me;
        this.nanos = nanos;
        this.wall = wall;
        this.leadership = leadership;
    }

    void start() {
        thread = Thread.ofPlatform().daemon().name("podnuma-lease-elector").start(this::run);
    }

    private void run() {
        Duration retry = me.timings().retryPeriod();
        while (!stopped.get()) {
            try {
                if (!attempt()) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.warn("leader election attempt on the Lease failed", e);
            }
            long ms = retry.toMillis();
            sleep(
                    state.leading()
                            ? ms
                            : ms
                                    + (long) (ms
                                            * JITTER
                                            * ThreadLocalRandom.current().nextDouble()));
        }
    }

    /** One attempt. False once this replica has stopped leading or the elector was closed: it is done. */
    boolean attempt() {
        if (stopped.get()) {
            return false;
        }
        LeaseRead read = leases.read();
        long now = nanos.getAsLong();
        LeaseElection.Decision d = LeaseElection.decide(me, state, read, now, wall.instant());
        state = d.next();
        noteHolder(read);
        switch (d.step()) {
            case LeaseElection.Create c -> wrote(leases.create(c.lease()), now);
            case LeaseElection.Acquire a -> wrote(leases.update(a.lease(), a.expectedVersion()), now);
            case LeaseElection.Renew r -> wrote(leases.update(r.lease(), r.expectedVersion()), now);
            case LeaseElection.Wait w -> LOG.debug("not leading: {}", w.why());
            case LeaseElection.StopLeading s -> {
                stopped.set(true);
                LOG.error("stopping to lead: {}", s.why());
                leadership.stop(s.why());
                return false;
            }
        }
        return !stopped.get();
    }

    private void wrote(LeaseWrite w, long attemptNanos) {
        switch (w) {
            case LeaseWrite.Stored s -> {
                boolean was = state.leading();
                state = LeaseElection.written(state, s.lease(), attemptNanos);
                failing = false;
                // A take-over that lands while closing is given up by release(), not led.
                if (!was && !stopped.get()) {
                    LOG.info("acquired the leader Lease as {}", me.identity());
                    leadership.start();
                }
            }
            case LeaseWrite.Conflict c -> LOG.debug("another replica wrote the Lease first: {}", c.why());
            case LeaseWrite.Failed f -> failed("cannot write the Lease: " + f.why());
        }
    }

    private void noteHolder(LeaseRead read) {
        switch (read) {
            case LeaseRead.Found f -> {
                failing = false;
                Optional<String> now = f.lease().record().holder();
                if (!now.equals(holder)) {
                    LOG.info("the leader Lease is held by {}", now.orElse("nobody"));
                    holder = now;
                }
            }
            case LeaseRead.Absent a -> failing = false;
            case LeaseRead.Failed f -> failed("cannot read the Lease: " + f.why());
        }
    }

    /** Once per run of failures: the API server away fails every attempt until it is back. */
    private void failed(String why) {
        // close() cuts a request under way: that failure is the stop's own.
        if (!failing && !stopped.get()) {
            LOG.warn(
                    "{} (retrying every {} ms)", why, me.timings().retryPeriod().toMillis());
        }
        failing = true;
    }

    boolean leading() {
        return state.leading();
    }

    /** Stops attempting; returns once the running attempt has ended (an attempt waiting on the API server is cut). */
    @Override
    public void close() {
        stopped.set(true);
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            try {
                t.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * After {@link #close}, at a graceful stop once the reconciles have ended: gives the Lease up if it names this
     * replica, so that a standby takes over at its next attempt instead of after {@code leaseDuration}. Conditional
     * on the resourceVersion read: a Lease that changed meanwhile is left alone.
     */
    void release() {
        Optional<LeaseElection.Renew> r = LeaseElection.release(me, leases.read(), wall.instant());
        if (r.isEmpty()) {
            return;
        }
        switch (leases.update(r.get().lease(), r.get().expectedVersion())) {
            case LeaseWrite.Stored s -> LOG.info("gave the leader Lease up");
            // The Lease then expires by itself.
            case LeaseWrite.Conflict c -> LOG.warn("could not give the leader Lease up: {}", c.why());
            case LeaseWrite.Failed f -> LOG.warn("could not give the leader Lease up: {}", f.why());
        }
    }

    private void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(Math.max(1, ms));
        } catch (InterruptedException e) {
            // Only close() interrupts, after setting stopped: the loop ends.
            Thread.currentThread().interrupt();
        }
    }
}
