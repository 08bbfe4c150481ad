package io.podnuma.crds.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The settings section of {@code node-agent run --help} and {@code operator run --help}: every setting with its flag,
 * environment variable, default and meaning, made from the settings' own definitions so it cannot fall behind them.
 * Built only when help is asked for.
 */
public final class SettingsHelp {

    /** Where the help text wraps, as picocli's default usage width. */
    public static final int WIDTH = 100;

    private static final String INDENT = "  ";
    private static final String TEXT_INDENT = "      ";

    private SettingsHelp() {}

    /**
     * One setting.
     *
     * @param flag the long flag without dashes, e.g. {@code metrics-port}
     * @param env the environment variable
     * @param defaultValue null: required; empty: empty (the meaning says what that does)
     * @param meaning what it does and which values it takes
     */
    public record Row(String flag, String env, String defaultValue, String meaning) {
        public Row {
            Objects.requireNonNull(flag, "flag");
            Objects.requireNonNull(env, "env");
            Objects.requireNonNull(meaning, "meaning");
        }

        /** The first lines of the row: flag and variable, then the default. */
        public String headline() {
            String dflt = defaultValue == null
                    ? "required"
                    : defaultValue.isEmpty() ? "default: (empty)" : "default: " + defaultValue;
            return INDENT + "--" + flag + " <value>, $" + env + "\n" + TEXT_INDENT + dflt;
        }
    }

    /**
     * The section a command's help ends with: a blank line, how the sources rank, the file's row, then each setting.
     */
    public static String section(Row file, Stream<Row> settings) {
        return "\n"
                + render(
                        "Settings: a flag wins over its environment variable, the variable over the file, the file over"
                                + " the default.",
                        Stream.concat(Stream.of(file), settings).toList());
    }

    /** {@code intro} (wrapped), then each row: its headline and its meaning wrapped below it. */
    public static String render(String intro, List<Row> rows) {
        StringBuilder out = new StringBuilder();
        wrap(intro, "", out);
        for (Row r : rows) {
            out.append(r.headline()).append('\n');
            wrap(r.meaning(), TEXT_INDENT, out);
        }
        return out.toString();
    }

    /** Greedy word wrap at {@link #WIDTH}; a word longer than a line stands on its own line. */
    static void wrap(String text, String indent, StringBuilder out) {
        List<String> line = new ArrayList<>();
        int length = indent.length();
        for (String word : text.strip().split("\\s+")) {
            if (!line.isEmpty() && length + 1 + word.length() > WIDTH) {
                out.append(indent).append(String.join(" ", line)).append('\n');
                line.clear();
                length = indent.length();
            }
            length += (line.isEmpty() ? 0 : 1) + word.length();
            line.add(word);
        }
        if (!line.isEmpty()) {
            out.append(indent).append(String.join(" ", line)).append('\n');
        }
    }
}
