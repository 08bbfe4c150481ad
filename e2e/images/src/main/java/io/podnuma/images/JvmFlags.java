package io.podnuma.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The node agent's JVM flags from {@code node-agent/jvm.flags}: one flag a line, '#' starts a comment. The same file
 * the test kit's agent launcher reads, so the image runs the JVM the tests and the agent bench measured.
 */
public record JvmFlags(List<String> flags) {
    public JvmFlags {
        flags = List.copyOf(flags);
        for (String flag : flags) {
            if (!flag.startsWith("-") || flag.contains(" ")) {
                throw new IllegalArgumentException("not one JVM flag: '" + flag + "'");
            }
        }
    }

    public static JvmFlags read(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    static JvmFlags parse(String text) {
        return new JvmFlags(text.lines()
                .map(line -> line.contains("#") ? line.substring(0, line.indexOf('#')) : line)
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList());
    }
}
