package io.podnuma.agent.checkpoint;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Another process holding a state directory's {@link StateDirectoryLock}, as a second agent on the node would: a
 * child JVM running {@link #main} on this module's classes. POSIX locks belong to a process, so only another process
 * shows what a second agent meets. The child exits when its stdin closes, so a test JVM that dies leaves no holder.
 */
public final class LockHolder implements AutoCloseable {

    private static final String LOCKED = "locked ";
    private static final String REFUSED = "refused ";

    private final Process process;
    private final long pid;

    private LockHolder(Process process, long pid) {
        this.process = process;
        this.pid = pid;
    }

    /** Starts a child that locks {@code stateDir}; returns once it holds the lock. */
    public static LockHolder start(Path stateDir) throws IOException, InterruptedException {
        Process p = launch(stateDir);
        String line = firstLine(p);
        if (line == null || !line.startsWith(LOCKED)) {
            p.destroyForcibly();
            throw new IllegalStateException("the lock holder did not take the lock: " + line);
        }
        return new LockHolder(p, Long.parseLong(line.substring(LOCKED.length())));
    }

    /** What another process is told when it tries to lock {@code stateDir}, which must be held. */
    public static String refusal(Path stateDir) throws IOException, InterruptedException {
        Process p = launch(stateDir);
        String line = firstLine(p);
        p.destroyForcibly();
        p.waitFor();
        if (line == null || !line.startsWith(REFUSED)) {
            throw new IllegalStateException("another process was not refused the lock: " + line);
        }
        return line.substring(REFUSED.length());
    }

    private static Process launch(Path stateDir) throws IOException {
        String classpath =
                String.join(File.pathSeparator, location(StateDirectoryLock.class), location(LockHolder.class));
        return new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classpath,
                        LockHolder.class.getName(),
                        stateDir.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static String firstLine(Process p) throws InterruptedException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        try {
            return CompletableFuture.supplyAsync(() -> {
                        try {
                            return out.readLine();
                        } catch (IOException e) {
                            return "cannot read the holder's output: " + e;
                        }
                    })
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IllegalStateException("the lock holder did not report within 30 s: " + e, e);
        }
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The holder's pid, as it wrote it into the lock file. */
    public long pid() {
        return pid;
    }

    /** Kills the holder with SIGKILL (nothing of it runs on the way out) and returns its exit status. */
    public int kill9() throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }

    /** The child: locks {@code args[0]}, says so, and holds the lock until its stdin closes; or says why not. */
    public static void main(String[] args) throws IOException {
        StateDirectoryLock lock;
        try {
            lock = StateDirectoryLock.acquire(Path.of(args[0]));
        } catch (IllegalStateException e) {
            System.out.println(REFUSED + e.getMessage());
            System.out.flush();
            System.exit(3);
            return;
        }
        try (lock) {
            System.out.println(LOCKED + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the parent goes away
            }
        }
    }
}
