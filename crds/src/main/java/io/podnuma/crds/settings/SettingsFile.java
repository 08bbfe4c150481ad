package io.podnuma.crds.settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where a component's settings file is named and how large it may be.
 *
 * @param flag the flag naming the file, without dashes ({@code config})
 * @param env the variable naming it when the flag does not
 * @param maxBytes far above a real file; stops a wrong mount (a device, a log) from being read whole
 * @param kind what the file is called in messages ({@code configuration file})
 * @param contents what it holds, in messages ({@code an agent configuration})
 */
public record SettingsFile(String flag, String env, long maxBytes, String kind, String contents) {

    /** The file named by the flag, else by the variable, else {@code fallback} (null: none). */
    public String name(Map<String, String> flags, Map<String, String> environment, String fallback) {
        return flags.getOrDefault(flag, environment.getOrDefault(env, fallback));
    }

    /**
     * The file's text.
     *
     * @param fail makes the component's exception from the one problem found
     */
    public String read(String file, Function<List<String>, ? extends SettingsException> fail) {
        Path path = Path.of(file);
        try {
            long size = Files.size(path);
            if (size > maxBytes) {
                throw fail.apply(List.of(file + ": the file has " + size + " bytes, more than the " + maxBytes + " "
                        + contents + " may have"));
            }
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw fail.apply(
                    List.of(file + ": the " + kind + " does not exist (set it with --" + flag + " or " + env + ")"));
        } catch (IOException e) {
            throw fail.apply(List.of(file + ": cannot read the " + kind + ": " + e));
        }
    }
}
