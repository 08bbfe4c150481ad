package io.podnuma.testkit.nri;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.controlplane.StaleRuns;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A child process that reads JSON lines on stdin and writes JSON lines on stdout (stderr goes to a log file). Its
 * stdout is drained all the time, so a chatty child never blocks on a full pipe. Its stdin is this JVM: when the JVM
 * dies the pipe closes and the Go programs exit on that EOF; a JVM killed while one hangs has it stopped by the next
 * JVM ({@link StaleRuns}).
 */
final class JsonLinesProcess implements AutoCloseable {

    static final Path RUNS = Path.of(System.getProperty("java.io.tmpdir"), "podnuma-nri-runs");
    static final String RUN_PREFIX = "nri-";
    private static final AtomicBoolean REAPED = new AtomicBoolean();
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /** Marks the end of stdout in the queue. */
    private static final JsonNode EOF = NriJson.MAPPER.createObjectNode().put("eof", true);

    private final String name;
    private final Process process;
    private final Path log;
    private final OutputStream stdin;
    private final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();

    private JsonLinesProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = process.getOutputStream();
        Thread.ofPlatform().daemon().name(name + "-stdout").start(this::drain);
    }

    static JsonLinesProcess start(String name, List<String> command, Path log) throws IOException {
        if (REAPED.compareAndSet(false, true)) {
            int stopped = StaleRuns.reap(RUNS, RUN_PREFIX);
            if (stopped > 0) {
                System.err.println("[testkit] stopped " + stopped + " NRI harness processes left by a killed test JVM");
            }
        }
        Files.createDirectories(log.toAbsolutePath().getParent());
        Files.writeString(log, "$ " + String.join(" ", command) + System.lineSeparator());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        StaleRuns.record(RUNS.resolve(RUN_PREFIX + ProcessHandle.current().pid()), process.toHandle());
        return new JsonLinesProcess(name, process, log);
    }

    private void drain() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                try {
                    lines.add(NriJson.MAPPER.readTree(line));
                } catch (JsonProcessingException e) {
                    lines.add(NriJson.MAPPER.createObjectNode().put("unparsed", line));
                }
            }
        } catch (IOException e) {
            // the process is gone; EOF below says so
        } finally {
            lines.add(EOF);
        }
    }

    /** Writes one line to the child's stdin. */
    synchronized void send(String jsonLine) {
        try {
            stdin.write((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new IllegalStateException(name + " does not take input (" + e.getMessage() + "):\n" + logTail(), e);
        }
    }

    /** The next stdout line within {@code timeout}; empty on timeout or once stdout has ended. */
    Optional<JsonNode> next(Duration timeout) throws InterruptedException {
        JsonNode line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (line == EOF) {
            lines.add(EOF); // every later reader sees the end too
            return Optional.empty();
        }
        return Optional.ofNullable(line);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code once the process has ended within {@code timeout}. */
    Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? Optional.of(process.exitValue())
                : Optional.empty();
    }

    Path log() {
        return log;
    }

    /** The last 40 lines of the child's stderr. */
    String logTail() {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** SIGKILL, and waits until the process has gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Closes stdin (the Go programs stop on EOF), then SIGTERM and SIGKILL if it lingers. */
    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already closed: the process has gone
        }
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
