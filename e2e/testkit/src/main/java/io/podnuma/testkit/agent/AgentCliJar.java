package io.podnuma.testkit.agent;

import io.podnuma.testkit.CliJars;
import java.nio.file.Path;

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
        return CliJars.locate(PROPERTY, "node-agent", "podnuma-node-agent");
    }
}
