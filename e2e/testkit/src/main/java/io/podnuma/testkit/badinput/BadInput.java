package io.podnuma.testkit.badinput;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One case of the bad-input catalogue: an input its consumer must refuse (or survive) with an exact answer, and what
 * it keeps meanwhile. The consumer's test runs the input and asserts {@link #answer} word for word, that nothing
 * crashed and that {@link #kept} holds; the doc row is rendered from the same record.
 *
 * @param id unique in the catalogue, {@code <kind prefix>-<short name>}, e.g. {@code cfg-port-zero}
 * @param kind which table the case belongs to
 * @param wrong what is wrong with the input, in a few words (the doc's "what is wrong")
 * @param input the input itself as the test feeds it (YAML, flags, file text, frame bytes described), for the runner
 * @param answer the exact messages, in the order the consumer reports them
 * @param kept what state the consumer keeps, e.g. "checkpoint file unchanged; agent starts empty"
 */
public record BadInput(String id, InputKind kind, String wrong, String input, List<String> answer, String kept) {

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)+");

    public BadInput {
        Objects.requireNonNull(kind, "kind");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("case id " + id + ": allowed lower-case words joined by '-'");
        }
        if (wrong == null || wrong.isBlank() || kept == null || kept.isBlank()) {
            throw new IllegalArgumentException(id + ": wrong and kept must say something");
        }
        answer = List.copyOf(answer);
        if (answer.isEmpty()) {
            throw new IllegalArgumentException(id + ": a case needs the exact answer");
        }
        input = Objects.requireNonNullElse(input, "");
    }

    /** A case with one message. */
    public static BadInput of(String id, InputKind kind, String wrong, String input, String answer, String kept) {
        return new BadInput(id, kind, wrong, input, List.of(answer), kept);
    }

    /**
     * Asserts that the consumer answered exactly {@link #answer}.
     *
     * @throws AssertionError showing both answers, the actual one as Java string literals to paste into the table
     */
    public void assertAnswer(List<String> actual) {
        if (!answer.equals(actual)) {
            StringBuilder b = new StringBuilder(id + ": the answer differs\nexpected:\n");
            answer.forEach(a -> b.append("  ").append(a).append('\n'));
            b.append("actual:\n");
            actual.forEach(a -> b.append("  ").append(literal(a)).append(",\n"));
            throw new AssertionError(b.toString());
        }
    }

    private static String literal(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }

    /** The case as JUnit shows it in a parameterised test's name. */
    @Override
    public String toString() {
        return id;
    }
}
