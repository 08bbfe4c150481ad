package io.podnuma.testkit.logs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the log of an agent or operator process as podnuma-logging writes it (logFormat text or json) and fails with
 * the offending line when one is not in the format: what a log collector would trip over.
 */
public final class LogLines {

    /** ISO-8601 UTC with milliseconds, as every record starts (text) or its {@code time} field holds (json). */
    public static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

    private static final Pattern TEXT_RECORD =
            Pattern.compile("(" + TIME.pattern() + ") \\[(.*?)] (TRACE|DEBUG|INFO|WARN|ERROR) (.+?) - (.*)");
    /** The lines of a stack trace below a text record: frames, causes, suppressed, elisions and the first line. */
    private static final Pattern STACK =
            Pattern.compile("(\\s+at .*|\\s*\\.\\.\\. \\d+ (more|common frames omitted)|\\s*(Caused by|Suppressed): .*"
                    + "|[\\w$.]+(Exception|Error|Throwable)(: .*)?)");

    private static final ObjectMapper JSON = new ObjectMapper();

    private LogLines() {}

    /**
     * One record: its level, logger and message (the first line of it in text). A logger's name may hold spaces (the
     * Java Operator SDK has "Default ConfigurationService implementation") and a thread's brackets (fabric8's
     * "InformerWrapper [numanodestates.podnuma.io/v1alpha1] 34"): in text the level after "] " ends the thread, the
     * first " - " after it the logger.
     */
    public record Entry(String time, String level, String logger, String thread, String message) {}

    /**
     * Every record of a text log; each line is a record that starts with its time or a line of the stack trace
     * below one.
     *
     * @throws AssertionError naming the first line that is neither
     */
    public static List<Entry> text(String log) {
        List<Entry> out = new ArrayList<>();
        int n = 0;
        for (String line : log.lines().toList()) {
            n++;
            Matcher m = TEXT_RECORD.matcher(line);
            if (m.matches()) {
                out.add(new Entry(m.group(1), m.group(3), m.group(4), m.group(2), m.group(5)));
            } else if (out.isEmpty() || !STACK.matcher(line).matches()) {
                throw new AssertionError("line " + n + " is no timestamped record nor a stack trace line: \"" + line
                        + "\"\nthe log:\n" + log);
            }
        }
        return out;
    }

    /**
     * Every record of a JSON log: each line one object with a time, level, logger, thread and message, and an
     * exception with class, message and stack when there is one.
     *
     * @throws AssertionError naming the first line that is not such an object
     */
    public static List<JsonNode> json(String log) {
        List<JsonNode> out = new ArrayList<>();
        int n = 0;
        for (String line : log.lines().toList()) {
            n++;
            JsonNode o;
            try {
                o = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                throw new AssertionError("line " + n + " is not JSON (" + e.getOriginalMessage() + "): \"" + line
                        + "\"\nthe log:\n" + log);
            }
            boolean fields = o != null
                    && o.isObject()
                    && o.path("time").isTextual()
                    && TIME.matcher(o.path("time").asText()).matches()
                    && o.path("level").asText().matches("TRACE|DEBUG|INFO|WARN|ERROR")
                    && o.path("logger").isTextual()
                    && o.path("thread").isTextual()
                    && o.has("message")
                    && (!o.has("exception")
                            || o.path("exception").path("class").isTextual()
                                    && o.path("exception").has("message")
                                    && o.path("exception").path("stack").isTextual());
            if (!fields) {
                throw new AssertionError("line " + n + " lacks a field of a record (time, level, logger, thread,"
                        + " message): \"" + line + "\"\nthe log:\n" + log);
            }
            out.add(o);
        }
        return out;
    }
}
