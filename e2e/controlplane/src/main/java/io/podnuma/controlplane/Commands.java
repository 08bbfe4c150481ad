package io.podnuma.controlplane;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs short-lived commands (kubectl, helm, openssl) to completion and captures what they print. */
public final class Commands {

    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);

    private Commands() {}

    /**
     * Runs {@code command} with extra environment variables and optional standard input.
     *
     * <p>Output goes through temporary files rather than pipes, so a chatty command can never block on a
     * full pipe while we wait for it.
     */
    public static CommandResult run(List<String> command, Map<String, String> env, String stdin, Duration timeout) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("podnuma-cmd-", ".out");
            err = Files.createTempFile("podnuma-cmd-", ".err");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(env);
            if (stdin == null) {
                builder.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
            }
            Process process = builder.start();
            if (stdin != null) {
                try (var in = process.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new CommandResult(
                        124,
                        Files.readString(out),
                        Files.readString(err) + System.lineSeparator() + "killed after " + timeout + ": " + command);
            }
            return new CommandResult(process.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /** Runs a command that must succeed, failing with its output otherwise. */
    static String runChecked(List<String> command) {
        CommandResult result = run(command, Map.of(), null, DEFAULT_TIMEOUT);
        if (!result.succeeded()) {
            throw new IllegalStateException("command failed with exit code " + result.exitCode() + ": "
                    + String.join(" ", command) + System.lineSeparator() + result.output());
        }
        return result.stdout();
    }

    private static File nullDevice() {
        return new File("/dev/null");
    }

    private static void deleteQuietly(Path path) {
        if (path != null) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }
}
