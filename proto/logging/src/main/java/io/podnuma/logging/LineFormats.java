package io.podnuma.logging;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The two line formats of {@link LogFormat}; each returns the whole record, ending in a line feed. */
final class LineFormats {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private LineFormats() {}

    static String format(LogFormat format, LogRecord r) {
        return format == LogFormat.JSON ? json(r) : text(r);
    }

    /**
     * slf4j-simple's line with the time in front, so what people and tests look for ({@code AgentDaemon - ready:})
     * reads the same; a stack trace follows on its own lines, as the JVM prints it.
     */
    static String text(LogRecord r) {
        StringBuilder sb = new StringBuilder(128);
        Timestamps.append(sb, r.epochMillis());
        sb.append(" [")
                .append(r.thread())
                .append("] ")
                .append(r.level().name())
                .append(' ')
                .append(r.logger())
                .append(" - ")
                .append(r.message())
                .append('\n');
        if (r.thrown() != null) {
            sb.append(stackTrace(r.thrown()));
        }
        return sb.toString();
    }

    /**
     * One JSON object on one line. Every character outside printable ASCII is escaped, so the line is the same bytes in
     * any charset the process's stderr has and a collector splits records on the line feed alone.
     */
    static String json(LogRecord r) {
        StringBuilder sb = new StringBuilder(192);
        sb.append("{\"time\":\"");
        Timestamps.append(sb, r.epochMillis());
        sb.append("\",\"level\":\"").append(r.level().name()).append('"');
        field(sb, "logger", r.logger());
        field(sb, "thread", r.thread());
        field(sb, "message", r.message());
        Throwable t = r.thrown();
        if (t != null) {
            sb.append(",\"exception\":{\"class\":");
            string(sb, t.getClass().getName());
            field(sb, "message", t.getMessage());
            field(sb, "stack", stackTrace(t));
            sb.append('}');
        }
        return sb.append("}\n").toString();
    }

    private static void field(StringBuilder sb, String name, String value) {
        sb.append(",\"").append(name).append("\":");
        string(sb, value);
    }

    /** A JSON string, or {@code null}. */
    static void string(StringBuilder sb, String s) {
        if (s == null) {
            sb.append("null");
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        sb.append(c);
                    } else {
                        // Control characters, DEL, non-ASCII and lone surrogates alike: \\uXXXX keeps each one.
                        sb.append("\\u")
                                .append(HEX[c >> 12 & 0xf])
                                .append(HEX[c >> 8 & 0xf])
                                .append(HEX[c >> 4 & 0xf])
                                .append(HEX[c & 0xf]);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** What {@link Throwable#printStackTrace()} prints: the class, message, frames, causes and suppressed ones. */
    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter(1024);
        try (PrintWriter pw = new PrintWriter(w)) {
            t.printStackTrace(pw);
        }
        // printStackTrace ends lines with the platform's separator; a record's lines end in \n everywhere.
        return w.toString().replace("\r\n", "\n");
    }
}
