package io.podnuma.agent.cgroup.watch;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import java.util.List;

/**
 * Receives the container cgroups a {@link CgroupTreeWatcher} notices, all on the watcher's one thread, in the
 * order they happened for each path. A path is reported as appeared at most once until it is reported as removed.
 *
 * <p>Every container-like directory is reported, the pod sandbox ("pause") included: only the pod's status can
 * tell it from a workload container, so the caller decides. A method that throws is logged and the watch goes on.
 */
public interface ContainerCgroupListener {

    /**
     * @param seenNanos {@link System#nanoTime()} when the watcher noticed the directory (the inotify event was
     *     taken, or the directory was listed)
     */
    void containerAppeared(ContainerCgroup container, CgroupPath path, long seenNanos);

    /**
     * The containers the watch's first listing found, in one call before {@link CgroupTreeWatcher#start} returns (those
     * it was given as already known left out), so a caller can handle them in one pass; by default each is reported
     * as appeared.
     */
    default void containersFound(List<FoundContainer> found, long seenNanos) {
        for (FoundContainer f : found) {
            containerAppeared(f.container(), f.path(), seenNanos);
        }
    }

    /** The directory of a container reported earlier is gone. */
    void containerRemoved(ContainerCgroup container, CgroupPath path, long seenNanos);

    /**
     * A directory where the kubelet or a runtime puts cgroups has a name neither would create. Ignored by default;
     * a caller may log it.
     *
     * @param reason names the directory, the segment at fault and what was expected
     */
    default void unrecognised(CgroupPath path, String reason) {}

    /** A {@code cpuset.*} file of a container reported earlier was written (by anyone). Ignored by default. */
    default void cpusetWritten(ContainerCgroup container, CgroupPath path) {}

    /**
     * Writes to this container's cpuset files cannot be reported: its directory could not be watched (e.g. the
     * inotify watch limit). Ignored by default.
     */
    default void cpusetUnwatched(ContainerCgroup container, CgroupPath path) {}

    /** The watcher lost events (and rescans): writes may have gone unreported. Ignored by default. */
    default void eventsLost() {}
}
