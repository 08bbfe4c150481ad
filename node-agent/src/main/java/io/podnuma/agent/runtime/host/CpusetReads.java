package io.podnuma.agent.runtime.host;

import io.podnuma.agent.cgroup.CgroupPath;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which container cpusets a reconcile tick reads back, and whether it lists the cgroup tree again.
 *
 * <p>Unwatched (the default, and cgroup v2, where a parent's change moves the effective sets without a write): every
 * container, every tick. Watched (cgroup v1 with the tree watcher's inotify watch on each container's directory,
 * {@link #watch}): only the containers whose cpuset files were written since the last tick, by podnuma or by anyone
 * else, and those the watcher could not watch; everything (and the tree listed again) on a full tick, which comes at
 * least once a {@link #FULL_EVERY}, first after {@link #watch}, and after the watcher lost events. What changes a
 * cpuset without a write (the kernel taking an offlined CPU out of every set) is found by the full tick.
 *
 * <p>The tick is what an idle agent does all day: on a full node a read of every container's two cpuset files and
 * a listing of every pod directory cost more than everything else the tick does.
 */
public final class CpusetReads {

    /** The longest a cpuset changed without a write goes unread, and the tree unlisted. */
    public static final Duration FULL_EVERY = Duration.ofMinutes(1);

    /** What one tick reads: everything, or the containers named. */
    public record Tick(boolean full, Set<CgroupPath> paths) {

        public static final Tick FULL = new Tick(true, Set.of());

        public Tick {
            paths = Set.copyOf(paths);
        }

        public boolean reads(CgroupPath container) {
            return full || paths.contains(container);
        }
    }

    private final long fullEvery;
    private final Set<CgroupPath> written = ConcurrentHashMap.newKeySet();
    private final Set<CgroupPath> unwatched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile boolean watched;
    /** Ticks since the last full one (loop thread only). */
    private long sinceFull;

    /** @param reconcilePeriod the tick's period: a full tick every {@link #FULL_EVERY} of them, rounded up */
    public CpusetReads(Duration reconcilePeriod) {
        if (reconcilePeriod.isNegative() || reconcilePeriod.isZero()) {
            throw new IllegalArgumentException("reconcilePeriod must be positive: " + reconcilePeriod);
        }
        this.fullEvery = Math.max(1, -Math.floorDiv(-FULL_EVERY.toNanos(), reconcilePeriod.toNanos()));
    }

    /** Writes to container cpusets are reported from now on; the next tick is a full one. */
    public void watch() {
        lost.set(true);
        watched = true;
    }

    /** A cpuset file of {@code container} was written. */
    public void written(CgroupPath container) {
        written.add(container);
    }

    /** Writes to {@code container}'s cpuset cannot be noticed (its directory could not be watched): read it always. */
    public void unwatched(CgroupPath container) {
        unwatched.add(container);
    }

    /** The container is gone. */
    public void removed(CgroupPath container) {
        written.remove(container);
        unwatched.remove(container);
    }

    /** Reports may have been lost: the next tick reads everything. */
    public void lost() {
        lost.set(true);
    }

    /** The reads of the next tick (on the loop thread, once a tick). */
    public Tick next() {
        boolean full = !watched | lost.getAndSet(false) | sinceFull >= fullEvery - 1;
        sinceFull = full ? 0 : sinceFull + 1;
        // Taken one by one: a report arriving meanwhile is either taken now or stays for the next tick.
        Set<CgroupPath> paths = new HashSet<>();
        for (Iterator<CgroupPath> it = written.iterator(); it.hasNext(); ) {
            paths.add(it.next());
            it.remove();
        }
        if (full) {
            return Tick.FULL;
        }
        paths.addAll(unwatched);
        return new Tick(false, paths);
    }
}
