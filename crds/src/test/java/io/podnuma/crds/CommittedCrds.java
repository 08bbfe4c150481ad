package io.podnuma.crds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Compares the CRDs the build generated with a committed copy and says, per file, what is out of date. Only files
 * ending in {@value #SUFFIX} count, so a target folder (the Helm chart's crds/) may hold other files.
 */
final class CommittedCrds {

    static final String SUFFIX = ".podnuma.io-v1.yml";
    static final String REFRESH_COMMAND = "./mvnw -pl crds -am -Pupdate-crds process-classes";

    private CommittedCrds() {}

    /** The problems found, one readable line each; empty when the copy is current. */
    static List<String> problems(Path generatedDir, Path committedDir) {
        Set<String> generated = crdFiles(generatedDir);
        if (generated.isEmpty()) {
            return List.of("no generated CRD in " + generatedDir + ": the crd-generator plugin did not run");
        }
        Set<String> committed = Files.isDirectory(committedDir) ? crdFiles(committedDir) : Set.of();
        List<String> problems = new ArrayList<>();
        for (String name : generated) {
            if (!committed.contains(name)) {
                problems.add(committedDir.resolve(name) + " is missing");
            } else if (!sameContent(generatedDir.resolve(name), committedDir.resolve(name))) {
                problems.add(committedDir.resolve(name) + " differs from the generated " + generatedDir.resolve(name));
            }
        }
        for (String name : committed) {
            if (!generated.contains(name)) {
                problems.add(committedDir.resolve(name) + " is no longer generated (a CRD was removed or renamed)");
            }
        }
        return problems;
    }

    /** The committed folders to check: those listed whose parent exists (the chart joins once it exists). */
    static List<Path> targets(String commaSeparated) {
        return Stream.of(commaSeparated.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(s -> Path.of(s).toAbsolutePath().normalize())
                .filter(p -> p.getParent() != null && Files.isDirectory(p.getParent()))
                .toList();
    }

    private static Set<String> crdFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(SUFFIX))
                    .collect(TreeSet::new, Set::add, Set::addAll);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static boolean sameContent(Path a, Path b) {
        try {
            return Files.mismatch(a, b) == -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compare " + a + " with " + b, e);
        }
    }
}
