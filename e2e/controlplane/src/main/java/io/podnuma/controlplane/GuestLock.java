package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One {@link GuestNode} at a time on this machine: an emulated guest takes a host CPU, and two of them starve each
 * other's kubelets. A file lock, so test JVMs of several forks or modules wait for each other; the kernel drops it
 * with a killed JVM.
 */
final class GuestLock {

    static final String FILE = "guestnode.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private GuestLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits for the lock under {@code base}. */
    static GuestLock take(Path base) {
        Path file = base.resolve(FILE);
        FileChannel channel = null;
        try {
            Files.createDirectories(base);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                System.err.println("[guestnode] another test JVM runs a guest; waiting for " + file);
                lock = channel.lock();
            }
            return new GuestLock(channel, lock);
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the lock was not taken
                }
            }
            throw new UncheckedIOException("cannot lock " + file + ": " + e.getMessage(), e);
        }
    }

    void release() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            channel.close();
        } catch (IOException e) {
            System.err.println("[guestnode] could not release " + FILE + ": " + e.getMessage());
        }
    }
}
