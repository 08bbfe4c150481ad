package io.podnuma.crds.yaml;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A YAML parser's message made into one line of an error that also names the file and the location. */
public final class YamlProblems {

    private YamlProblems() {}

    /**
     * SnakeYAML puts its context, an excerpt with a caret and the problem on separate lines; the unindented lines
     * (context and problem) are kept, joined on one line. The location is added by the caller.
     */
    public static String oneLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        return Arrays.stream(message.split("\n"))
                .filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .map(String::strip)
                .collect(Collectors.joining(": "));
    }
}
