package io.podnuma.operator.settings;

import java.util.List;

/** The settings cannot be used: every problem, each naming the key (or flag, or variable), value and what is allowed. */
public final class OperatorSettingsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public OperatorSettingsException(List<String> problems) {
        super(
                problems.size() == 1
                        ? "invalid operator settings: " + problems.getFirst()
                        : "invalid operator settings (" + problems.size() + " problems):\n  - "
                                + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
