package io.podnuma.testkit.badinput;

import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The catalogue's one generator: renders a kind's cases as a Markdown table into its section of
 * {@code docs/bad-input.md}, between {@code <!-- bad-input:<marker> begin -->} and {@code ... end -->}. Each module's
 * case test owns the sections of its kinds, so the doc is regenerated module by module: run the test with
 * {@value #WRITE_PROPERTY}{@code =true} and it writes its section instead of comparing.
 */
public final class BadInputDoc {

    public static final String FILE = "docs/bad-input.md";
    public static final String WRITE_PROPERTY = "podnuma.badinput.write";

    private BadInputDoc() {}

    /** The section's text (heading line to the table's last row) for {@code cases}, all of {@code kind}. */
    public static String section(InputKind kind, List<BadInput> cases) {
        Set<String> ids = new HashSet<>();
        StringBuilder b = new StringBuilder();
        b.append("## ").append(kind.title()).append(" (").append(cases.size()).append(" cases)\n\n");
        b.append("Consumed by ").append(kind.consumer()).append(".\n\n");
        b.append("| id | input kind | what is wrong | the answer | what is kept |\n");
        b.append("|---|---|---|---|---|\n");
        for (BadInput c : cases) {
            if (c.kind() != kind) {
                throw new IllegalArgumentException(c.id() + " is a " + c.kind() + " case, not " + kind);
            }
            if (!ids.add(c.id())) {
                throw new IllegalArgumentException("case id " + c.id() + " appears twice");
            }
            b.append("| `")
                    .append(c.id())
                    .append("` | ")
                    .append(kind.marker())
                    .append(" | ")
                    .append(cell(c.wrong()))
                    .append(" | ")
                    .append(String.join(
                            "<br>", c.answer().stream().map(BadInputDoc::code).toList()))
                    .append(" | ")
                    .append(cell(c.kept()))
                    .append(" |\n");
        }
        return b.toString();
    }

    /**
     * Compares the doc's section of {@code kind} with {@link #section}, or writes it when {@value #WRITE_PROPERTY} is
     * {@code true}.
     *
     * @return null when the doc is up to date (or was written), else what is wrong and the command that fixes it
     */
    public static String check(InputKind kind, List<BadInput> cases, String module, String testClass) {
        Path file = Repository.resolve(FILE);
        String doc = read(file);
        String begin = "<!-- bad-input:" + kind.marker() + " begin -->\n";
        String end = "<!-- bad-input:" + kind.marker() + " end -->";
        int from = doc.indexOf(begin);
        int to = doc.indexOf(end);
        String regenerate = "regenerate with: ./mvnw -B -ntp -pl " + module + " -am -Dtest=" + testClass
                + " -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true test";
        if (from < 0 || to < from) {
            return FILE + " has no section " + begin.strip() + " ... " + end + "; add the two markers, then "
                    + regenerate;
        }
        String want = section(kind, cases);
        String have = doc.substring(from + begin.length(), to);
        if (have.equals(want)) {
            return null;
        }
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            write(file, doc.substring(0, from + begin.length()) + want + doc.substring(to));
            return null;
        }
        return FILE + " section " + kind.marker() + " is out of date with the " + testClass + " cases; " + regenerate;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A message as inline code; a backtick inside is doubled around by a wider fence. */
    private static String code(String message) {
        String m = cell(message);
        return m.contains("`") ? "`` " + m + " ``" : "`" + m + "`";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
