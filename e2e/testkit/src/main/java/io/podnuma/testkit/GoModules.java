package io.podnuma.testkit;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.Commands;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
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

    /**
     * Where built programs are kept between runs, beside the control plane's cache ({@code $PODNUMA_CACHE_DIR}, else
     * {@code ~/.cache/podnuma}): one directory per program and key, a few MB to 72 MB each.
     */
    static final Path CACHE = Path.of(Optional.ofNullable(System.getenv("PODNUMA_CACHE_DIR"))
                    .orElse(System.getProperty("user.home") + "/.cache/podnuma"))
            .resolve("go-programs");

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

    /**
     * Builds the main package of {@code module} into {@code binary}, or copies it from {@link #CACHE} when these
     * sources were built with this Go before ({@link #build(Path, Path, Path, Map)}).
     */
    public static Path build(Path module, Path binary, String legacyProperty) throws IOException {
        return buildWith(module, binary, legacyProperty, Map.of());
    }

    /**
     * {@link #build(Path, Path, String)} without cgo: a program that needs no C library of this host, so it runs where
     * the host's libraries are not (a guest's initramfs).
     */
    public static Path buildStatic(Path module, Path binary) throws IOException {
        return buildWith(module, binary, null, Map.of("CGO_ENABLED", "0"));
    }

    private static Path buildWith(Path module, Path binary, String legacyProperty, Map<String, String> env)
            throws IOException {
        Path go = go(legacyProperty)
                .orElseThrow(() -> new IllegalStateException("no executable 'go' to build " + module + " with"));
        return build(go, module, binary, env);
    }

    /**
     * Builds the main package of {@code module} with {@code go} (and {@code env}) into {@code binary}. The binary is
     * kept in {@link #CACHE} under a key of every file of the module and Go's version and settings, and copied from
     * there when the key is already built: Go's build cache keeps the compiled packages, not the linked program, so a
     * fresh checkout would link each program again (the kubelet oracle takes 25 s on 2 cores).
     */
    public static Path build(Path go, Path module, Path binary, Map<String, String> env) throws IOException {
        String name = module.toAbsolutePath().normalize().getFileName().toString();
        Path cached = CACHE.resolve(name + "-" + key(go, module, env)).resolve(name);
        if (!Files.isExecutable(cached)) {
            buildInto(go, module, cached, env);
        }
        Path absolute = binary.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        // Copied beside it and renamed over it, so a process running the previous copy is never handed half a file.
        Path copy = absolute.resolveSibling(
                absolute.getFileName() + ".copy-" + ProcessHandle.current().pid());
        Files.copy(cached, copy, StandardCopyOption.REPLACE_EXISTING);
        if (!copy.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + copy + " executable");
        }
        Files.move(copy, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return absolute;
    }

    /**
     * Links the program in a directory of this JVM's own, then renames that directory to the cache entry: another
     * JVM building the same key at the same time either wins the rename (this one's copy is dropped) or loses it,
     * and nobody ever sees a half-written binary.
     */
    private static void buildInto(Path go, Path module, Path cached, Map<String, String> env) throws IOException {
        Path entry = cached.getParent();
        Files.createDirectories(entry.getParent());
        Path scratch = Files.createTempDirectory(entry.getParent(), entry.getFileName() + ".building-");
        try {
            CommandResult r = Commands.run(
                    List.of(
                            go.toString(),
                            "-C",
                            module.toString(),
                            "build",
                            "-mod=readonly",
                            "-buildvcs=false",
                            "-o",
                            scratch.resolve(cached.getFileName()).toString(),
                            "."),
                    env,
                    null,
                    BUILD_TIMEOUT);
            if (!r.succeeded()) {
                throw new IllegalStateException("go build of " + module + " failed:\n" + r.output());
            }
            try {
                Files.move(scratch, entry, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // Another JVM cached the same key meanwhile (the rename finds the entry there): the same program.
                if (!Files.isExecutable(cached)) {
                    throw e;
                }
            }
        } finally {
            deleteRecursively(scratch);
        }
    }

    /** What the binary is made of: every file of the module (path and bytes) and the Go settings that shape it. */
    private static String key(Path go, Path module, Map<String, String> env) throws IOException {
        CommandResult settings = Commands.run(
                List.of(
                        go.toString(),
                        "env",
                        "GOVERSION",
                        "GOOS",
                        "GOARCH",
                        "GOAMD64",
                        "GOFLAGS",
                        "GOEXPERIMENT",
                        "CGO_ENABLED"),
                env,
                null,
                Duration.ofMinutes(1));
        if (!settings.succeeded()) {
            throw new IllegalStateException("go env failed:\n" + settings.output());
        }
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        digest.update(settings.stdout().getBytes(StandardCharsets.UTF_8));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(module)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path f : files) {
            digest.update(module.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(Files.readAllBytes(f));
            digest.update((byte) 0);
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
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
