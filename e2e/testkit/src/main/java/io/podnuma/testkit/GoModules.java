package io.podnuma.testkit;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.Commands;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The machine's Go, for the small Go programs of the test kit ({@code e2e/testkit/src/main/go/*}: each its own module
 * with a committed go.sum, built {@code -mod=readonly}, so a build never changes what it depends on).
 */
public final class GoModules {

    /** The Go the kit's programs need at least (their go.mod says {@code go 1.26.0}). */
    public static final String MINIMUM = "Go 1.26+";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);

    private GoModules() {}

    /**
     * Why {@code what} cannot be built here (no executable {@code go}), if it cannot. Where Go is looked for: the
     * system property {@code legacyProperty} if given and set, else {@code -Dpodnuma.go}, else the PATH, else
     * {@code /usr/local/go/bin/go}.
     */
    public static Optional<String> whyUnavailable(String what, String legacyProperty) {
        return go(legacyProperty).isPresent()
                ? Optional.empty()
                : Optional.of(
                        "no executable 'go' (-Dpodnuma.go, PATH, /usr/local/go/bin): " + what + " needs " + MINIMUM);
    }

    /** Builds the main package of {@code module} into {@code binary}; fast once Go's build cache has it. */
    public static Path build(Path module, Path binary, String legacyProperty) throws IOException {
        Path go = go(legacyProperty)
                .orElseThrow(() -> new IllegalStateException("no executable 'go' to build " + module + " with"));
        Path absolute = binary.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        CommandResult r = Commands.run(
                List.of(
                        go.toString(),
                        "-C",
                        module.toString(),
                        "build",
                        "-mod=readonly",
                        "-buildvcs=false",
                        "-o",
                        absolute.toString(),
                        "."),
                Map.of(),
                null,
                BUILD_TIMEOUT);
        if (!r.succeeded()) {
            throw new IllegalStateException("go build of " + module + " failed:\n" + r.output());
        }
        return absolute;
    }

    private static Optional<Path> go(String legacyProperty) {
        String explicit =
                Optional.ofNullable(legacyProperty).map(System::getProperty).orElse(System.getProperty("podnuma.go"));
        if (explicit != null) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isBlank())
                .map(d -> Path.of(d, "go"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/local/go/bin/go")))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
