package io.podnuma.controlplane;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One long-running control-plane process whose output goes to its own log file. */
final class ManagedProcess implements AutoCloseable {

    private static final long STOP_GRACE_SECONDS = 10;
    private static final int TAIL_BYTES = 64 * 1024;

    private final String name;
    private final List<String> command;
    private final Path log;
    private final Map<String, String> env;
    private final Process process;

    private ManagedProcess(String name, List<String> command, Map<String, String> env, Path log, Process process) {
        this.name = name;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.log = log;
        this.process = process;
    }

    static ManagedProcess start(String name, List<String> command, Path logDir) {
        return start(name, command, Map.of(), logDir);
    }

    /** Starts {@code command} with {@code env} added to this JVM's environment. */
    static ManagedProcess start(String name, List<String> command, Map<String, String> env, Path logDir) {
        Path log = logDir.resolve(name + ".log");
        try {
            Files.createDirectories(logDir);
            Files.writeString(log, "$ " + String.join(" ", command) + System.lineSeparator());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
        }
        return launch(name, command, env, log);
    }

    /**
     * Starts the same command again, once this process has ended; its output goes on at the end of the same log, so
     * the log tells both runs apart.
     */
    ManagedProcess again() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running (pid " + process.pid() + ")");
        }
        try {
            Files.writeString(
                    log,
                    "$ (again, the previous run exited with " + process.exitValue() + ") " + String.join(" ", command)
                            + System.lineSeparator(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
        }
        return launch(name, command, env, log);
    }

    private static ManagedProcess launch(String name, List<String> command, Map<String, String> env, Path log) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(env);
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new ManagedProcess(name, command, env, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /** The exit code; only once the process has ended. */
    int exitValue() {
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Fails with the log's tail when the process has exited, which is always a fault for a server. */
    void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; its log "
                    + log.toAbsolutePath() + " ends with:" + System.lineSeparator() + tail(40));
        }
    }

    /** The last {@code lines} lines of the log. */
    /** Prints the last {@code lines} lines of each process's log, to explain a failed test. */
    static void printLogTails(List<ManagedProcess> processes, PrintStream out, int lines) {
        for (ManagedProcess process : processes) {
            out.println("----- last " + lines + " lines of " + process.log().toAbsolutePath()
                    + (process.isAlive() ? "" : " (process has exited)") + " -----");
            out.println(process.tail(lines));
        }
    }

    String tail(int lines) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(0, file.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            List<String> all = new String(bytes, StandardCharsets.UTF_8).lines().toList();
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** Kills the process (SIGKILL) and waits until it has exited: every connection to it drops at once. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") did not exit after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name + " to exit", e);
        }
    }

    /** Asks the process to stop (SIGTERM), and kills it if it is still there after a grace period. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
