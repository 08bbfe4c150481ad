package io.podnuma.crds.settings;

import java.util.List;

/**
 * The settings of a component cannot be used. Every problem found is listed, each naming the key (or flag, or
 * environment variable), the value and what is allowed, so one start shows them all.
 */
public abstract class SettingsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    /** @param subject what cannot be used, e.g. {@code agent configuration} */
    protected SettingsException(String subject, List<String> problems) {
        super(
                problems.size() == 1
                        ? "invalid " + subject + ": " + problems.getFirst()
                        : "invalid " + subject + " (" + problems.size() + " problems):\n  - "
                                + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
