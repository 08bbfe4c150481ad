package io.podnuma.testkit.soak;

/** One broken invariant at one sample: what, whose, and a sentence with the values. */
public record Violation(ViolationKind kind, String subject, String detail) {

    @Override
    public String toString() {
        return kind + " " + subject + ": " + detail;
    }
}
