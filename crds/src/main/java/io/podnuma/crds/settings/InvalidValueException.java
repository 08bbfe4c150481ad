package io.podnuma.crds.settings;

import java.util.List;

/** A setting's value cannot be used: every problem found in it, so a list with two bad entries names both. */
public final class InvalidValueException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient List<ValueProblem> problems;

    public InvalidValueException(List<ValueProblem> problems) {
        super(problems.toString());
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid value has at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public InvalidValueException(ValueProblem problem) {
        this(List.of(problem));
    }

    public List<ValueProblem> problems() {
        return problems;
    }
}
