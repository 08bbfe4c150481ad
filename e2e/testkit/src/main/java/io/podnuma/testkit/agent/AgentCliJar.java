package io.podnuma.testkit.agent;

import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The node agent's runnable jar, {@code node-agent/target/podnuma-node-agent-<version>-cli.jar}. */
public final class AgentCliJar {

    /** Overrides where the jar is: {@code -Dpodnuma.agent.cliJar=FILE}. */
    public static final String PROPERTY = "podnuma.agent.cliJar";

    private AgentCliJar() {}

    /**
     * The jar: the property's file if set, else the one {@code package} built in the repository.
     *
     * @throws IllegalStateException naming every place it looked
     */
    public static Path locate() {
        String set = System.getProperty(PROPERTY);
        if (set != null) {
            Path jar = Path.of(set).toAbsolutePath();
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + set + ": no such file " + jar);
            }
            return jar;
        }
        Path target = Repository.resolve("node-agent/target");
        List<Path> found = List.of();
        if (Files.isDirectory(target)) {
            try (Stream<Path> s = Files.list(target)) {
                found = s.filter(p -> p.getFileName().toString().matches("podnuma-node-agent-.*-cli\\.jar"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + target + ": " + e.getMessage(), e);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no node agent CLI jar: -D" + PROPERTY + " is not set and " + target
                    + " holds no podnuma-node-agent-*-cli.jar; build it with ./mvnw -pl node-agent -am package"
                    + " (an IT run through Maven packages it first)");
        }
        return found.getLast();
    }
}
