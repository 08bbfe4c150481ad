package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.checkpoint.CheckpointFiles;
import io.podnuma.agent.runtime.Fence.Port;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What outlives an agent incarnation in the in-process crash soak: the container cgroups with their cpusets and the
 * state directory, each with the faults the soak injects (cgroup writes failing with an errno, the directory full or
 * read-only). {@link #portsOf} hands one incarnation its ports, all behind its {@link Fence}.
 */
final class CrashHost {

    /** How cgroup writes fail while a fault lasts, with the kernel's text. */
    enum WriteFailure {
        NONE(""),
        EBUSY("Device or resource busy"),
        ENOSPC("No space left on device"),
        EACCES("Permission denied");

        final String text;

        WriteFailure(String text) {
            this.text = text;
        }
    }

    /** The state directory's fault. */
    enum DirFault {
        NONE,
        FULL,
        READ_ONLY
    }

    /** One container cgroup: whose it is, and its cpuset. */
    static final class Cgroup {
        final String podUid;
        final String container;
        final ContainerCgroup cgroup;
        final CgroupPath path;
        volatile Pin pin;
        /** The cpuset is one an agent wrote (not the parent's sets of a new cgroup, not someone else's change). */
        volatile boolean written;

        Cgroup(String podUid, String container, ContainerCgroup cgroup, CgroupPath path, Pin pin) {
            this.podUid = podUid;
            this.container = container;
            this.cgroup = cgroup;
            this.path = path;
            this.pin = pin;
        }
    }

    /** One incarnation's view of the host. */
    record Ports(PinWriter pins, Supplier<List<FoundContainer>> scan, CheckpointFiles checkpointFiles) {}

    final Map<CgroupPath, Cgroup> cgroups = new ConcurrentHashMap<>();
    volatile WriteFailure writeFailure = WriteFailure.NONE;
    volatile DirFault dirFault = DirFault.NONE;
    int cgroupWrites;
    int failedCgroupWrites;
    int failedCheckpointSteps;

    Ports portsOf(Fence fence) {
        PinWriter pins = new PinWriter() {
            @Override
            public boolean apply(CgroupPath container, Pin pin) throws CgroupWriteException {
                return fence.call(Port.CGROUP_WRITE, () -> write(container, pin));
            }

            @Override
            public Optional<Pin> read(CgroupPath container) throws CgroupWriteException {
                return fence.call(
                        Port.CGROUP_READ,
                        () -> Optional.ofNullable(cgroups.get(container)).map(c -> c.pin));
            }

            @Override
            public void removeQuota(CgroupPath container) throws CgroupWriteException {
                fence.call(Port.CGROUP_WRITE, () -> {
                    failIfFailing(container, "cpu.max");
                    return null;
                });
            }
        };
        Supplier<List<FoundContainer>> scan = () -> fence.call(
                Port.CGROUP_SCAN,
                () -> cgroups.values().stream()
                        .map(c -> new FoundContainer(c.cgroup, c.path))
                        .toList());
        return new Ports(pins, scan, new Files(fence));
    }

    private synchronized boolean write(CgroupPath container, Pin pin) throws CgroupWriteException {
        Cgroup c = cgroups.get(container);
        if (c == null) {
            throw new CgroupWriteException(Path.of("/sys/fs/cgroup/" + container), container + " does not exist");
        }
        failIfFailing(container, "cpuset.cpus");
        cgroupWrites++;
        boolean changed = !pin.equals(c.pin);
        c.pin = pin;
        c.written = true;
        return changed;
    }

    private synchronized void failIfFailing(CgroupPath container, String file) throws CgroupWriteException {
        WriteFailure f = writeFailure;
        if (f != WriteFailure.NONE) {
            failedCgroupWrites++;
            Path p = Path.of("/sys/fs/cgroup/" + container + "/" + file);
            throw new CgroupWriteException(p, "write " + p + ": " + f.text);
        }
    }

    /** The state directory behind one incarnation's fence, failing as the directory's fault says. */
    private final class Files implements CheckpointFiles {
        private final Fence fence;

        Files(Fence fence) {
            this.fence = fence;
        }

        @Override
        public Path createTemp(Path dir, String prefix) throws IOException {
            return fence.call(Port.CHECKPOINT_TEMP, () -> {
                failIf(DirFault.READ_ONLY, "Read-only file system");
                return HOST.createTemp(dir, prefix);
            });
        }

        @Override
        public void write(Path temp, byte[] bytes) throws IOException {
            fence.call(Port.CHECKPOINT_DATA, () -> {
                failIf(DirFault.FULL, "No space left on device");
                HOST.write(temp, bytes);
                return null;
            });
        }

        @Override
        public void replace(Path temp, Path target) throws IOException {
            fence.call(Port.CHECKPOINT_RENAME, () -> {
                failIf(DirFault.READ_ONLY, "Read-only file system");
                HOST.replace(temp, target);
                return null;
            });
        }

        @Override
        public void moveAside(Path file, Path target) throws IOException {
            fence.call(Port.CHECKPOINT_OTHER, () -> {
                failIf(DirFault.READ_ONLY, "Read-only file system");
                HOST.moveAside(file, target);
                return null;
            });
        }

        @Override
        public void delete(Path file) throws IOException {
            fence.call(Port.CHECKPOINT_OTHER, () -> {
                failIf(DirFault.READ_ONLY, "Read-only file system");
                HOST.delete(file);
                return null;
            });
        }

        @Override
        public void sync(Path file) throws IOException {
            fence.call(Port.CHECKPOINT_OTHER, () -> {
                HOST.sync(file);
                return null;
            });
        }

        @Override
        public void syncDirectory(Path dir) throws IOException {
            fence.call(Port.CHECKPOINT_OTHER, () -> {
                HOST.syncDirectory(dir);
                return null;
            });
        }

        private void failIf(DirFault fault, String text) throws IOException {
            if (dirFault == fault) {
                synchronized (CrashHost.this) {
                    failedCheckpointSteps++;
                }
                throw new IOException(text);
            }
        }
    }
}
