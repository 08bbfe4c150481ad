package io.podnuma.agent.cgroup.watch;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices container cgroups as they appear and disappear below kubepods in the cpuset hierarchy, through the
 * platform {@link WatchService} (inotify on Linux: one watch per directory, delivered in microseconds).
 *
 * <p>The levels that hold containers are watched for directories: the hierarchy root (so a kubepods directory created
 * later is seen), kubepods, its QoS directories and the pod directories; a container's removal is seen in its pod
 * directory. Each container's own directory is watched for writes to its {@code cpuset.*} files
 * ({@link ContainerCgroupListener#cpusetWritten}), so a reconcile need not read back the cpusets nobody wrote.
 * A newly seen directory is registered first and listed second, so a child created in between is found by the
 * listing, and one created after by an event; duplicates are dropped. A directory gone while being registered or
 * listed is skipped: its removal event follows. A lost event ({@code OVERFLOW}, e.g. a burst of more than 512 on
 * one directory) makes a full rescan, which reports exactly the differences.
 *
 * <p>{@link #start} registers, lists the tree and reports every container found (except those passed as already
 * known, which are reported as removed if they are gone) before it returns; after that, every change on one thread.
 */
public final class CgroupTreeWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CgroupTreeWatcher.class);

    /**
     * The longest the thread waits for an event before it looks at {@link #requestRescan()} again. {@link #close()}
     * wakes it at once (closing the watch service), and a rescan the thread itself asks for runs at once; a rescan
     * asked for from outside waits for the next event or this. Waking every 500 ms was 120 wake-ups a minute of an
     * idle agent's thread (issue 13).
     */
    private static final long IDLE_POLL_MILLIS = 30_000;

    private static final long CLOSE_WAIT_MILLIS = 5_000;

    /** A test seam: runs just before a directory is registered, to create or remove things at that moment. */
    interface RegistrationHook {
        RegistrationHook NONE = dir -> {};

        void beforeRegister(Path dir) throws IOException;
    }

    private final Path root;
    private final KubepodsTree tree;
    private final ContainerCgroupListener listener;
    private final RegistrationHook hook;
    private final WatchService watchService;
    private final Thread thread;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean rescanRequested = new AtomicBoolean();
    private final AtomicLong rescans = new AtomicLong();
    /** What the first listing finds, told in one call at its end; null after it (watcher thread only). */
    private List<FoundContainer> firstListing = new ArrayList<>();

    private final AtomicLong watched = new AtomicLong();
    private final CompletableFuture<Void> started = new CompletableFuture<>();

    // Confined to the watcher thread.
    private final Map<CgroupPath, WatchKey> keysByPath = new HashMap<>();
    private final Map<WatchKey, CgroupPath> pathsByKey = new HashMap<>();
    private final Map<CgroupPath, ContainerCgroup> known = new LinkedHashMap<>();
    private final Set<CgroupPath> reportedUnrecognised = new HashSet<>();

    private CgroupTreeWatcher(
            CgroupLayout layout, ContainerCgroupListener listener, RegistrationHook hook, WatchService watchService) {
        this.root = layout.cpusetRoot();
        this.tree = new KubepodsTree(layout.naming());
        this.listener = listener;
        this.hook = hook;
        this.watchService = watchService;
        this.thread = new Thread(this::run, "cgroup-tree-watcher");
        this.thread.setDaemon(true);
    }

    /** Watches from scratch: every container that exists now is reported as appeared before this returns. */
    public static CgroupTreeWatcher start(CgroupLayout layout, ContainerCgroupListener listener) throws IOException {
        return start(layout, listener, List.of());
    }

    /**
     * Watches, taking {@code alreadyKnown} (e.g. a {@link CgroupTreeScanner#scan} handled at start-up) as reported:
     * those are not reported again while they exist, and are reported as removed if they are gone by now. There is
     * no gap: a container created between the scan and this call is reported.
     *
     * @throws IOException when the hierarchy root is not a directory or cannot be watched (the message names it)
     */
    public static CgroupTreeWatcher start(
            CgroupLayout layout, ContainerCgroupListener listener, Collection<FoundContainer> alreadyKnown)
            throws IOException {
        return start(layout, listener, alreadyKnown, RegistrationHook.NONE);
    }

    static CgroupTreeWatcher start(
            CgroupLayout layout,
            ContainerCgroupListener listener,
            Collection<FoundContainer> alreadyKnown,
            RegistrationHook hook)
            throws IOException {
        Objects.requireNonNull(listener, "listener");
        Path root = layout.cpusetRoot();
        if (!Files.isDirectory(root)) {
            throw new IOException("cannot watch the cgroup hierarchy " + root + ": it does not exist or is not a"
                    + " directory; the cpuset hierarchy root must be visible to the agent");
        }
        CgroupTreeWatcher w = new CgroupTreeWatcher(
                layout, listener, hook, root.getFileSystem().newWatchService());
        for (FoundContainer f : alreadyKnown) {
            w.known.put(f.path(), f.container());
        }
        w.startThread();
        return w;
    }

    private void startThread() throws IOException {
        thread.start();
        try {
            started.get();
        } catch (ExecutionException e) {
            close();
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot start watching " + root + ": " + cause, cause);
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting to watch " + root, e);
        }
    }

    /**
     * Asks for a full rescan on the watcher thread, at its next event or within {@link #IDLE_POLL_MILLIS}; it reports
     * only differences.
     */
    public void requestRescan() {
        rescanRequested.set(true);
    }

    /** Full rescans done since start, after lost events or on request. */
    public long fullRescans() {
        return rescans.get();
    }

    /** Directories watched now (one inotify watch each). */
    public long watchedDirectories() {
        return watched.get();
    }

    /** Whether the watcher thread still runs. */
    boolean isRunning() {
        return thread.isAlive();
    }

    /** Stops the thread and frees the watches; no listener call starts after this returns (unless called by one). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            watchService.close(); // wakes the thread out of poll
        } catch (IOException e) {
            LOG.warn("closing the watch on {}: {}", root, e.getMessage());
        }
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(CLOSE_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            try {
                addWatch(CgroupPath.root());
            } catch (IOException e) {
                throw new IOException("cannot watch the cgroup hierarchy " + root + ": " + e, e);
            }
            long seen = System.nanoTime();
            resync(seen, false);
            List<FoundContainer> found = List.copyOf(firstListing);
            firstListing = null;
            call(() -> listener.containersFound(found, seen));
        } catch (IOException | RuntimeException e) {
            started.completeExceptionally(e);
            return;
        }
        started.complete(null);
        while (!closed.get()) {
            WatchKey key;
            try {
                key = watchService.poll(rescanRequested.get() ? 0 : IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (ClosedWatchServiceException | InterruptedException e) {
                break;
            }
            long seen = System.nanoTime();
            try {
                if (key != null) {
                    handle(key, seen);
                }
                if (rescanRequested.getAndSet(false)) {
                    resync(seen, true);
                }
            } catch (ClosedWatchServiceException e) {
                break;
            } catch (RuntimeException e) {
                // A bug must not end discovery: the next rescan restores a consistent view.
                LOG.error("cgroup watch on {} failed; rescanning", root, e);
                rescanRequested.set(true);
            }
        }
    }

    private void handle(WatchKey key, long seen) {
        CgroupPath dir = pathsByKey.get(key);
        boolean lost = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == OVERFLOW) {
                lost = true;
            } else if (dir != null) {
                CgroupPath child = dir.child(event.context().toString());
                if (event.kind() == ENTRY_CREATE) {
                    visit(child, seen);
                } else if (event.kind() == ENTRY_DELETE) {
                    gone(child, seen);
                } else if (event.kind() == ENTRY_MODIFY) {
                    ContainerCgroup c = known.get(dir);
                    if (c != null && event.context().toString().startsWith("cpuset.")) {
                        call(() -> listener.cpusetWritten(c, dir));
                    }
                }
            }
        }
        if (!key.reset() && dir != null && keysByPath.get(dir) == key) {
            // The directory itself is gone (its parent's event may not have said so, e.g. for the root).
            gone(dir, seen);
        }
        if (lost) {
            LOG.info("cgroup watch on {} lost events below {}; rescanning", root, dir);
            call(listener::eventsLost);
            resync(seen, true);
        }
    }

    /** A directory that may exist at {@code path}: report it, or watch and list it. */
    private void visit(CgroupPath path, long seen) {
        if (!Files.isDirectory(path.in(root), LinkOption.NOFOLLOW_LINKS)) {
            return; // gone again: its removal event follows
        }
        switch (tree.classify(path)) {
            case KubepodsTree.Container c -> appeared(path, c.container(), seen);
            case KubepodsTree.Parent p -> {
                register(path);
                if (keysByPath.containsKey(path)) {
                    for (String name : list(path)) {
                        visit(path.child(name), seen);
                    }
                }
            }
            case KubepodsTree.Unrecognised u -> {
                if (reportedUnrecognised.add(path)) {
                    LOG.debug("ignoring {}", u.reason());
                    call(() -> listener.unrecognised(path, u.reason()));
                }
            }
            case KubepodsTree.Ignored i -> {}
        }
    }

    private void register(CgroupPath path) {
        if (keysByPath.containsKey(path)) {
            return;
        }
        try {
            addWatch(path);
        } catch (NoSuchFileException | NotDirectoryException gone) {
            // removed meanwhile: the parent's event says so
        } catch (IOException e) {
            // E.g. the inotify watch limit (fs.inotify.max_user_watches): containers here are found by rescans only.
            LOG.warn("cannot watch cgroup directory {}: {}", path.in(root), e.toString());
        }
    }

    private void addWatch(CgroupPath path) throws IOException {
        Path dir = path.in(root);
        hook.beforeRegister(dir);
        WatchKey key = dir.register(watchService, ENTRY_CREATE, ENTRY_DELETE);
        keysByPath.put(path, key);
        pathsByKey.put(key, path);
        watched.set(keysByPath.size());
    }

    private List<String> list(CgroupPath path) {
        Path dir = path.in(root);
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path child : ds) {
                names.add(child.getFileName().toString());
            }
        } catch (NoSuchFileException | NotDirectoryException gone) {
            return List.of();
        } catch (IOException e) {
            LOG.warn("cannot list cgroup directory {}: {}", dir, e.getMessage());
        }
        return names;
    }

    /** The directory at {@code path} is gone: so is everything below it. */
    private void gone(CgroupPath path, long seen) {
        // The view (containers and watches) is settled before any listener hears of it, so a listener (or a test
        // woken by one) never sees a removed container still watched.
        Map<CgroupPath, ContainerCgroup> removed = new LinkedHashMap<>();
        ContainerCgroup c = known.remove(path);
        if (c != null) {
            removed.put(path, c);
        }
        for (CgroupPath p : new ArrayList<>(known.keySet())) {
            if (isBelow(p, path)) {
                removed.put(p, known.remove(p));
            }
        }
        List<CgroupPath> unwatch = new ArrayList<>();
        for (CgroupPath p : keysByPath.keySet()) {
            if (p.equals(path) || isBelow(p, path)) {
                unwatch.add(p);
            }
        }
        for (CgroupPath p : unwatch) {
            WatchKey key = keysByPath.remove(p);
            pathsByKey.remove(key);
            key.cancel();
        }
        watched.set(keysByPath.size());
        reportedUnrecognised.removeIf(p -> p.equals(path) || isBelow(p, path));
        removed.forEach((p, inner) -> call(() -> listener.containerRemoved(inner, p, seen)));
        if (path.isRoot()) {
            LOG.warn("the cgroup hierarchy {} disappeared: no container cgroup can be noticed any more", root);
        }
    }

    /** Makes the view equal to the tree: removals of what is gone first, then everything found. */
    private void resync(long seen, boolean counted) {
        if (counted) {
            rescans.incrementAndGet();
        }
        for (CgroupPath p : new ArrayList<>(known.keySet())) {
            if (known.containsKey(p) && !Files.isDirectory(p.in(root), LinkOption.NOFOLLOW_LINKS)) {
                gone(p, seen);
            }
        }
        for (CgroupPath p : new ArrayList<>(keysByPath.keySet())) {
            if (keysByPath.containsKey(p) && !Files.isDirectory(p.in(root), LinkOption.NOFOLLOW_LINKS)) {
                gone(p, seen);
            }
        }
        visit(CgroupPath.root(), seen);
    }

    private void appeared(CgroupPath path, ContainerCgroup c, long seen) {
        // Watched before it is reported: the listener reads the cpuset after this, so no write goes unnoticed.
        if (!keysByPath.containsKey(path)) {
            try {
                WatchKey key = path.in(root).register(watchService, ENTRY_MODIFY);
                keysByPath.put(path, key);
                pathsByKey.put(key, path);
                watched.set(keysByPath.size());
            } catch (NoSuchFileException | NotDirectoryException gone) {
                return; // removed meanwhile: the parent's event says so
            } catch (IOException e) {
                LOG.warn(
                        "cannot watch container cgroup {}: {}; its cpuset is read on every reconcile",
                        path.in(root),
                        e.toString());
                call(() -> listener.cpusetUnwatched(c, path));
            }
        }
        if (known.putIfAbsent(path, c) == null) {
            if (firstListing != null) {
                firstListing.add(new FoundContainer(c, path));
            } else {
                call(() -> listener.containerAppeared(c, path, seen));
            }
        }
    }

    private void call(Runnable r) {
        if (closed.get()) {
            return;
        }
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("container cgroup listener failed", e);
        }
    }

    private static boolean isBelow(CgroupPath p, CgroupPath dir) {
        List<String> a = p.segments();
        List<String> b = dir.segments();
        return a.size() > b.size() && a.subList(0, b.size()).equals(b);
    }
}
