package io.podnuma.agent.config;

import java.util.List;

/**
 * The agent configuration cannot be used. Every problem found is listed, each naming the key (or flag, or
 * environment variable), the value and what is allowed, so one start-up shows them all.
 */
public final class AgentConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public AgentConfigException(List<String> problems) {
        super(
                problems.size() == 1
                        ? "invalid agent configuration: " + problems.getFirst()
                        : "invalid agent configuration (" + problems.size() + " problems):\n  - "
                                + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
