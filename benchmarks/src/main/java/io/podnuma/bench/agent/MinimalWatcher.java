package io.podnuma.bench.agent;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.CgroupWrite;
import io.podnuma.agent.cgroup.HostCgroupFiles;
import io.podnuma.agent.cgroup.WritableCgroupFile;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.testkit.host.CpusetSubtree;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of pin latency on this machine under its load at the moment: the least any watching agent can do, in
 * this (warm) JVM. One thread takes the inotify event of a new cgroup and writes {@code cpuset.cpus}, nothing else;
 * a start is timed exactly like an agent's start (mkdir, a process joins, poll until the file holds the set). What
 * it costs beyond the bare write is the wake-up of a second thread, which a loaded machine makes wait for a CPU.
 */
final class MinimalWatcher implements AutoCloseable {

    /** The watcher's cpuset subtree is {@code podnuma-floor-<pid>-<hex>}; a killed run's is removed by the next. */
    static final String PURPOSE = "floor";

    private final HostCgroupFiles files;
    private final CpusetSubtree subtree;
    private final Path dir;
    private final CpuSet wanted;
    private final WatchService watch;
    private final Thread thread;
    private final long pid;
    private int next;

    /** @param wanted what the watcher writes into each new cgroup (the subtree itself has all CPUs and nodes) */
    MinimalWatcher(CpuSet wanted) throws IOException {
        this.subtree = CpusetSubtree.create(PURPOSE);
        this.dir = subtree.root();
        this.files = new HostCgroupFiles(
                new CgroupLayout(CgroupVersion.V1, dir, dir, new CgroupNaming(CgroupDriver.CGROUPFS)));
        this.wanted = wanted;
        subtree.inheritParentSets();
        this.pid = subtree.startProcessIn(dir);
        this.watch = FileSystems.getDefault().newWatchService();
        dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        this.thread = new Thread(this::serve, "bench-minimal-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    /** The watched directory: the subtree's root. */
    Path dir() {
        return dir;
    }

    private void serve() {
        String value = wanted.toString();
        try {
            while (true) {
                WatchKey key = watch.take();
                for (WatchEvent<?> e : key.pollEvents()) {
                    if (e.context() instanceof Path name) {
                        try {
                            files.write(new CgroupWrite(dir.resolve(name), WritableCgroupFile.CPUSET_CPUS, value));
                        } catch (IOException ex) {
                            // removed already: nothing to pin
                        }
                    }
                }
                key.reset();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    /** One start, timed like an agent's: mkdir → a process joins → polled until the set is there; -1 on timeout. */
    long start(long pollNanos, long timeoutNanos) throws IOException {
        Path c = dir.resolve("c" + next++);
        long t0 = System.nanoTime();
        Files.createDirectory(c);
        // The runtime's part: a process joins (the agent's files do not write cgroup.procs).
        Files.writeString(c.resolve("cgroup.procs"), String.valueOf(pid));
        long deadline = t0 + timeoutNanos;
        long took = -1;
        while (true) {
            String text = files.read(c.resolve("cpuset.cpus"));
            long now = System.nanoTime();
            if (!text.isBlank() && CpuSet.parse(text).equals(wanted)) {
                took = now - t0;
                break;
            }
            if (now > deadline) {
                break;
            }
            LockSupport.parkNanos(pollNanos);
        }
        // The process goes back to the floor directory, so the next start moves it again.
        Files.writeString(dir.resolve("cgroup.procs"), String.valueOf(pid));
        Files.delete(c);
        return took;
    }

    /** Stops the watcher, kills its process and removes its subtree. */
    @Override
    public void close() throws IOException {
        watch.close();
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the subtree still goes
        }
        subtree.close();
    }
}
