package io.podnuma.crds.settings;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Where each setting's value comes from, the same for the agent and the operator: a flag wins over its environment
 * variable, the variable over the file, the file over the default; a setting without any is required. Every problem
 * is collected, so one start names them all.
 */
public final class SettingSources {

    private SettingSources() {}

    /** What the file holds for one setting. */
    public sealed interface FileEntry {

        /** A value for the setting's type to read. */
        record Value(JsonNode node) implements FileEntry {}

        /** A value the file's own reader found wrong, reported as it is. */
        record Problem(String message) implements FileEntry {}
    }

    /** The file's entry for a setting; empty: the file does not set it. */
    @FunctionalInterface
    public interface FileValues<S> {
        Optional<FileEntry> entry(S setting);
    }

    /**
     * @param values each setting read, by its type (a setting whose parser answers null for "none" is absent)
     * @param unreadable the settings that had a problem, so that checks pairing them with others can skip them
     */
    public record Resolved<S extends Enum<S>>(Map<S, Object> values, Set<S> unreadable) {}

    /** Each setting of {@code type} from its first source; each problem goes to {@code problems}. */
    public static <S extends Enum<S> & SettingDefinition> Resolved<S> resolve(
            Class<S> type,
            Map<String, String> flags,
            Map<String, String> env,
            String fileName,
            FileValues<S> file,
            List<String> problems) {
        Map<S, Object> values = new EnumMap<>(type);
        Set<S> unreadable = EnumSet.noneOf(type);
        for (S s : type.getEnumConstants()) {
            String source;
            Supplier<Object> read;
            Optional<FileEntry> inFile;
            if (flags.containsKey(s.flag())) {
                source = "flag --" + s.flag();
                read = () -> s.type().fromText(flags.get(s.flag()));
            } else if (env.containsKey(s.env())) {
                source = "environment " + s.env();
                read = () -> s.type().fromText(env.get(s.env()));
            } else if ((inFile = file.entry(s)).isPresent()) {
                if (inFile.get() instanceof FileEntry.Problem p) {
                    problems.add(p.message());
                    unreadable.add(s);
                    continue;
                }
                JsonNode node = ((FileEntry.Value) inFile.get()).node();
                source = fileName + ": " + s.key();
                read = () -> s.type().fromFile(node);
            } else if (s.defaultValue() != null) {
                source = "default " + s.key();
                read = () -> s.type().fromText(s.defaultValue());
            } else {
                problems.add(s.key() + " is required (" + s.description() + "): set it in the file, with --" + s.flag()
                        + " or with " + s.env());
                unreadable.add(s);
                continue;
            }
            try {
                Object value = read.get();
                if (value != null) {
                    values.put(s, value);
                }
            } catch (InvalidValueException e) {
                e.problems().forEach(p -> problems.add(p.describe(source)));
                unreadable.add(s);
            }
        }
        return new Resolved<>(values, unreadable);
    }

    /** A problem for each flag that is neither {@code configFlag} nor a setting's, naming those allowed. */
    public static <S extends Enum<S> & SettingDefinition> List<String> unknownFlags(
            Class<S> type, String configFlag, Map<String, String> flags) {
        List<String> known = new ArrayList<>();
        known.add(configFlag);
        for (S s : type.getEnumConstants()) {
            known.add(s.flag());
        }
        List<String> problems = new ArrayList<>();
        for (String f : new TreeSet<>(flags.keySet())) {
            if (!known.contains(f)) {
                problems.add("unknown flag --" + f + ": allowed "
                        + known.stream().map(k -> "--" + k).collect(Collectors.joining(", ")));
            }
        }
        return problems;
    }
}
