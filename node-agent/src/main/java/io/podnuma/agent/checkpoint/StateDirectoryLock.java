package io.podnuma.agent.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * One agent per state directory: an exclusive lock on {@code <stateDir>/agent.lock}, held until {@link #close()} (the
 * end of the process). Two agents on one node, each trusting its own checkpoint, would hand the same CPUs to different
 * containers and undo each other's cgroup writes; the second one must stop before it reads the checkpoint.
 *
 * <p>The lock is the kernel's (a POSIX record lock), so it goes with its holder however that dies, kill -9 included,
 * and a stale file never blocks a start. The holder writes its pid into the file for the message of the next one. The
 * file stays across restarts and rolling updates: an agent that deleted it on the way out could leave a starting agent
 * holding the lock of a file nobody else opens any more, beside a third agent locking a new one. Only an agent whose
 * node left podnuma removes it ({@link #removeOnRelease}), as it removes the checkpoint: no agent is due there.
 */
public final class StateDirectoryLock implements AutoCloseable {

    public static final String FILE_NAME = "agent.lock";

    /**
     * The directories this process holds. POSIX locks belong to the process, not to the channel: a second channel on
     * the file in this JVM would be granted the lock (Java refuses that with OverlappingFileLockException) and its
     * close would drop the first one's, so a second acquire here is refused before it opens anything.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private static final Pattern PID = Pattern.compile("[1-9][0-9]{0,18}");
    /** A pid and its newline, with room to spare. */
    private static final int MAX_READ = 32;

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private final Path file;
    private boolean remove;

    private StateDirectoryLock(Path key, FileChannel channel, FileLock lock, Path file) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
        this.file = file;
    }

    /**
     * Locks {@code dir} (created if missing) for this process.
     *
     * @throws IllegalStateException when another agent holds it ({@link #heldMessage}) or the lock file cannot be
     *     made, naming the directory and the file
     */
    public static StateDirectoryLock acquire(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        Path key;
        try {
            Files.createDirectories(dir);
            key = dir.toRealPath();
        } catch (IOException e) {
            throw cannot(dir, file, e);
        }
        if (!HELD.add(key)) {
            throw new IllegalStateException(
                    heldMessage(dir, file, Long.toString(ProcessHandle.current().pid())));
        }
        FileChannel channel = null;
        try {
            // No TRUNCATE_EXISTING: while another agent holds the lock, its pid in the file is the message.
            channel = FileChannel.open(
                    file,
                    Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new IllegalStateException(heldMessage(dir, file, readHolder(channel)));
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new StateDirectoryLock(key, channel, lock, file);
        } catch (IOException | RuntimeException e) {
            HELD.remove(key);
            closeQuietly(channel);
            throw e instanceof IllegalStateException ise ? ise : cannot(dir, file, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // Another path to the same file locked in this JVM (a second name of the directory): held all the same.
            return null;
        }
    }

    private static String readHolder(FileChannel channel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(MAX_READ);
        while (buf.hasRemaining() && channel.read(buf, buf.position()) > 0) {
            // a pid is one short write; read until the end of the file or of the buffer
        }
        return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).strip();
    }

    /**
     * What a second agent is told. The pid is as the holder's PID namespace numbers it (an agent in a pod is often
     * pid 1 there); {@code holder} is the file's content, not yet written when the holder has only just taken it.
     */
    static String heldMessage(Path dir, Path file, String holder) {
        String who = PID.matcher(holder).matches()
                ? "pid " + holder + " in its PID namespace (" + file + ")"
                : "whose pid is not in " + file + " yet";
        return "the state directory " + dir + " is locked by another node agent, " + who
                + ": two agents on one node would pin the same containers; stop the other agent, or give this one a"
                + " stateDir of its own";
    }

    private static IllegalStateException cannot(Path dir, Path file, Exception e) {
        return new IllegalStateException(
                "cannot lock the state directory " + dir + " through " + file + ": "
                        + e.getClass().getSimpleName()
                        + ": " + e.getMessage()
                        + " (the agent needs the directory writable, for its lock and its checkpoint)",
                e);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the start fails with the reason it already has
            }
        }
    }

    /** The node has left podnuma: {@link #close} deletes the file, while it still holds the lock. */
    public synchronized void removeOnRelease() {
        remove = true;
    }

    /** Releases the lock (the file stays unless {@link #removeOnRelease}); a second close does nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        try (channel) {
            if (remove) {
                Files.deleteIfExists(file);
            }
            lock.release();
        } finally {
            HELD.remove(key);
        }
    }
}
