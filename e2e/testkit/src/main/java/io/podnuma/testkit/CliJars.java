package io.podnuma.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The project's runnable jars, {@code <module>/target/<artifact>-<version>-cli.jar}, as {@code package} builds them. */
public final class CliJars {

    private CliJars() {}

    /**
     * The jar: {@code -D<property>=FILE} if set, else the one {@code package} built in {@code module}.
     *
     * @throws IllegalStateException naming every place it looked and how to build it
     */
    public static Path locate(String property, String module, String artifact) {
        String set = System.getProperty(property);
        if (set != null) {
            Path jar = Path.of(set).toAbsolutePath();
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("-D" + property + "=" + set + ": no such file " + jar);
            }
            return jar;
        }
        Path target = Repository.resolve(module + "/target");
        List<Path> found = List.of();
        if (Files.isDirectory(target)) {
            try (Stream<Path> s = Files.list(target)) {
                found = s.filter(p -> p.getFileName().toString().matches(artifact + "-.*-cli\\.jar"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + target + ": " + e.getMessage(), e);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no " + artifact + " CLI jar: -D" + property + " is not set and " + target
                    + " holds no " + artifact + "-*-cli.jar; build it with ./mvnw -pl " + module
                    + " -am package (an IT run through Maven packages it first)");
        }
        return found.getLast();
    }
}
