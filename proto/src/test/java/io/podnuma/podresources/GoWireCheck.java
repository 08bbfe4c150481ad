package io.podnuma.podresources;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Builds and runs the Go half of the wire check ({@code src/test/go/wirecheck}), which uses the
 * kubelet's own generated PodResources types from module {@code k8s.io/kubelet}.
 */
final class GoWireCheck {

    /** Surefire and Failsafe set {@code basedir}; an IDE usually runs tests from the module directory. */
    static final Path BASEDIR = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();

    static final Path MODULE = BASEDIR.resolve("src/test/go/wirecheck");

    /** A cold build downloads the modules in go.sum and compiles gRPC; later builds hit Go's cache. */
    private static final long BUILD_TIMEOUT_MINUTES = 15;

    private static final long RUN_TIMEOUT_SECONDS = 120;

    private final Path binary;

    private GoWireCheck(Path binary) {
        this.binary = binary;
    }

    /**
     * The {@code go} command: the one named by {@code -Dwirecheck.go=...} if given, else the first on
     * PATH, else the usual install location.
     */
    static Optional<Path> findGo() {
        String explicit = System.getProperty("wirecheck.go");
        if (explicit != null) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "go"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/local/go/bin/go")))
                .filter(Files::isExecutable)
                .findFirst();
    }

    static GoWireCheck build(Path go, Path outputDir) throws IOException, InterruptedException {
        Files.createDirectories(outputDir);
        Path binary = outputDir.resolve("wirecheck");
        long started = System.nanoTime();
        Result result = exec(
                List.of(go.toString(), "build", "-mod=readonly", "-buildvcs=false", "-o", binary.toString(), "."),
                BUILD_TIMEOUT_MINUTES * 60);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(
                    "go build in " + MODULE + " failed (exit " + result.exitCode() + "):\n" + result.stderr());
        }
        System.out.printf(
                "wirecheck: built with %s in %d ms%n", go, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return new GoWireCheck(binary);
    }

    /** Runs a command to completion and parses its report lines; a non-zero exit fails with stderr. */
    Report run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(List.of(args));
        Result result = exec(command, RUN_TIMEOUT_SECONDS);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(
                    "wirecheck " + String.join(" ", args) + " exited " + result.exitCode() + ":\n" + result.stderr());
        }
        return Report.parse(result.stdout());
    }

    /** Starts a long-running command (the server); the caller closes its stdin to stop it. */
    Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(MODULE.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private record Result(int exitCode, String stdout, String stderr) {}

    private static Result exec(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("wirecheck", ".out");
        Path err = Files.createTempFile("wirecheck", ".err");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(MODULE.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeoutSeconds
                        + " s; stderr so far:\n" + Files.readString(err, UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The "key value" lines the Go program prints, by key, in the order printed. */
    record Report(Map<String, List<String>> lines) {

        static Report parse(String stdout) {
            Map<String, List<String>> lines = new LinkedHashMap<>();
            stdout.lines().filter(line -> !line.isBlank()).forEach(line -> {
                int space = line.indexOf(' ');
                String key = space < 0 ? line : line.substring(0, space);
                lines.computeIfAbsent(key, k -> new ArrayList<>()).add(space < 0 ? "" : line.substring(space + 1));
            });
            return new Report(lines);
        }

        /** The value of the first line with this key. */
        String get(String key) {
            return all(key).getFirst();
        }

        List<String> all(String key) {
            List<String> values = lines.get(key);
            if (values == null) {
                throw new AssertionError("wirecheck printed no line '" + key + "'; it printed: " + lines.keySet());
            }
            return values;
        }
    }
}
