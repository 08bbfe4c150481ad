package io.podnuma.testkit.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted over an agent's state directory, so a soak can make the directory read-only for a while (as
 * a failing disk's file system is remounted) or full (a filler file takes every free page). Needs root (CAP_SYS_ADMIN). Every mount has the source name
 * {@link #SOURCE}, by which {@link #removeLeftovers} finds and unmounts what a killed run left behind.
 */
public final class TmpfsStateDir implements AutoCloseable {

    public static final String SOURCE = "podnuma-soak-state";
    /** The file that fills the tmpfs; its name starts with a dot so that no agent file is mistaken for it. */
    static final String FILLER = ".podnuma-soak-filler";

    private final Path dir;
    private boolean mounted = true;
    /** Whether the read-only bind mount is on top of the tmpfs. */
    private boolean readOnlyOnTop;

    private TmpfsStateDir(Path dir) {
        this.dir = dir;
    }

    /** Mounts a 4 MiB tmpfs over {@code dir} (created if missing), or says why it cannot and returns empty. */
    public static Optional<TmpfsStateDir> mount(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String failed = run("mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", SOURCE, dir.toString());
        if (failed != null) {
            System.out.println(
                    "no tmpfs over the state directory (" + failed + "): the read-only and full faults are left out");
            return Optional.empty();
        }
        return Optional.of(new TmpfsStateDir(dir));
    }

    public Path dir() {
        return dir;
    }

    /**
     * Writes fail with EROFS from now on: a read-only bind mount of the tmpfs stacked on it. A remount of the tmpfs
     * itself would fail with EBUSY, since the agent keeps its lock file open for writing the whole time (the kernel's
     * own remount of a failing disk is forced); files opened before stay writable, as they would then.
     */
    public void readOnly() {
        if (readOnlyOnTop) {
            return;
        }
        // The remount is refused (EBUSY) while a file opened through the new bind mount is open for writing: the
        // agent writes its checkpoint (a temp file, then a rename) at any moment, so a try may land in one. Again.
        String failed = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            require(run("mount", "--bind", dir.toString(), dir.toString()));
            failed = run("mount", "-o", "remount,bind,ro", dir.toString());
            if (failed == null) {
                break;
            }
            require(run("umount", "--lazy", dir.toString()));
            sleepMillis(10);
        }
        if (failed != null) {
            throw new IllegalStateException(failed + " (20 tries)");
        }
        readOnlyOnTop = true;
        try {
            Files.delete(Files.createTempFile(dir, "probe-", ""));
            throw new IllegalStateException(dir + " still takes writes after the read-only bind mount");
        } catch (IOException expected) {
            // EROFS, even for root: the mount itself refuses
        }
    }

    /**
     * Writes work again: the read-only mount comes off the tmpfs. Lazily: an agent that started while the directory
     * was read-only holds its lock file open through the read-only mount, which a plain umount refuses as busy; that
     * file keeps working, and every path opened from now on reaches the writable tmpfs.
     */
    public void writable() {
        if (readOnlyOnTop) {
            require(run("umount", "--lazy", dir.toString()));
            readOnlyOnTop = false;
        }
    }

    /**
     * Writes fail with ENOSPC from now on: a filler file takes what is free, down to the last byte (tmpfs limits root
     * too). Creating an empty file still works, as on a full disk; its first write fails.
     */
    public void full() {
        Path filler = dir.resolve(FILLER);
        try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            // Big chunks first, then ever smaller ones for the rest of the last page.
            for (int chunk = 1 << 20; chunk >= 1; chunk >>= 4) {
                ByteBuffer buf = ByteBuffer.allocate(chunk);
                try {
                    while (true) {
                        buf.clear();
                        if (out.write(buf, out.size()) == 0) {
                            break;
                        }
                    }
                } catch (IOException noSpace) {
                    // this chunk no longer fits: try a smaller one
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the filler " + filler, e);
        }
        try {
            Path probe = Files.createTempFile(dir, "probe-", "");
            try {
                Files.write(probe, new byte[4096]);
                throw new IllegalStateException(dir + " still takes writes after the filler took its space");
            } catch (IOException expected) {
                // ENOSPC
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The filler gone: writes work again. */
    public void notFull() {
        try {
            Files.deleteIfExists(dir.resolve(FILLER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unmounts it (what it held goes with it). */
    @Override
    public void close() {
        if (mounted) {
            mounted = false;
            writable();
            require(run("umount", dir.toString()));
        }
    }

    /** Unmounts every tmpfs named {@link #SOURCE}: the ones a killed run could not. */
    public static void removeLeftovers() {
        List<String> targets = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[0].equals(SOURCE) && f[2].equals("tmpfs")) {
                    targets.add(f[1]);
                }
            }
        } catch (IOException e) {
            return; // no /proc: nothing of ours can be mounted either
        }
        for (String t : targets) {
            System.out.println("unmounting " + t + ", left by a killed soak");
            run("umount", "-l", t);
        }
    }

    private static void sleepMillis(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void require(String failed) {
        if (failed != null) {
            throw new IllegalStateException(failed);
        }
    }

    /** Runs the command; null when it succeeded, else what it said. */
    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", command) + " did not finish in 30 s";
            }
            return p.exitValue() == 0 ? null : String.join(" ", command) + " exited " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            return String.join(" ", command) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
