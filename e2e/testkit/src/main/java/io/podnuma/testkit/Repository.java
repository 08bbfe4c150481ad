package io.podnuma.testkit;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The podnuma checkout the tests run in, found from the working directory (Maven runs each module's tests in the
 * module's directory, so it is that or one of its parents) or {@code -Dpodnuma.repository=DIR}.
 */
public final class Repository {

    public static final String PROPERTY = "podnuma.repository";

    private Repository() {}

    /**
     * The repository's root directory.
     *
     * @throws IllegalStateException naming where it looked when no directory there holds the node agent's module
     */
    public static Path root() {
        String set = System.getProperty(PROPERTY);
        if (set != null) {
            Path root = Path.of(set).toAbsolutePath();
            if (!isRoot(root)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + set + " is not a podnuma checkout (no "
                        + root.resolve("node-agent/pom.xml") + ")");
            }
            return root;
        }
        Path start = Path.of("").toAbsolutePath();
        return find(start)
                .orElseThrow(() -> new IllegalStateException("no podnuma checkout at or above " + start
                        + " (looked for node-agent/pom.xml beside mvnw); run from the repository or set -D"
                        + PROPERTY + "=DIR"));
    }

    /** A path inside the repository, e.g. {@code crds/generated}. */
    public static Path resolve(String relative) {
        return root().resolve(relative);
    }

    /**
     * The checkout's files whose names end with {@code suffix} (e.g. {@code ".md"}), without what builds write
     * ({@code target}) and hidden directories ({@code .git}, editors' and CI's), which hold copies and no sources.
     */
    public static List<Path> files(String suffix) throws IOException {
        Path root = root();
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName().toString();
                return !dir.equals(root) && (name.equals("target") || name.startsWith("."))
                        ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(suffix)) {
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }

    static Optional<Path> find(Path from) {
        for (Path d = from; d != null; d = d.getParent()) {
            if (isRoot(d)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    private static boolean isRoot(Path dir) {
        return Files.isRegularFile(dir.resolve("mvnw")) && Files.isRegularFile(dir.resolve("node-agent/pom.xml"));
    }
}
