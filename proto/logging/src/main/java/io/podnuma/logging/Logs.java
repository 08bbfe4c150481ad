package io.podnuma.logging;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The process's log settings: one threshold and one format for every logger, SLF4J's and java.util.logging's. The
 * CLIs call {@link #configure} as soon as their settings are read; until then records at {@code INFO} and above are
 * written as text. Loggers read the settings on each call, so loggers made before {@link #configure} (static fields
 * of classes loaded early) follow it too.
 */
public final class Logs {

    /** The settings of the moment, swapped whole so a record never sees a threshold of one and a format of another. */
    private record Settings(Level threshold, LogFormat format) {}

    private static volatile Settings settings = new Settings(Level.INFO, LogFormat.TEXT);
    /** Where lines go; null: the current {@link System#err}. */
    private static volatile Consumer<String> sink;

    private Logs() {}

    /**
     * From now on every logger of the process writes records at {@code threshold} and above in {@code format}, and
     * java.util.logging's (gRPC's, the JDK HTTP client's) are sent here too. At debug and below it says so, the
     * first debug line of the process.
     */
    public static void configure(Level threshold, LogFormat format) {
        settings = new Settings(threshold, format);
        JulBridge.install(threshold);
        write(new LogRecord(
                System.currentTimeMillis(),
                Level.DEBUG,
                Logs.class.getName(),
                Thread.currentThread().getName(),
                "logging at " + threshold.name().toLowerCase(java.util.Locale.ROOT) + " as " + format.wireName(),
                null));
    }

    /** The threshold in force. */
    public static Level threshold() {
        return settings.threshold();
    }

    /** The format in force. */
    public static LogFormat format() {
        return settings.format();
    }

    static boolean enabled(Level level) {
        return settings.threshold().admits(level);
    }

    /** Writes {@code r} if it passes the threshold. */
    static void write(LogRecord r) {
        Settings s = settings;
        if (!s.threshold().admits(r.level())) {
            return;
        }
        String line = LineFormats.format(s.format(), r);
        Consumer<String> to = sink;
        if (to != null) {
            to.accept(line);
            return;
        }
        // One write of the whole record: PrintStream.write is synchronized, so records of two threads never
        // interleave, and raw UTF-8 bytes keep non-ASCII text whatever charset stderr was given.
        PrintStream err = System.err;
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        err.write(bytes, 0, bytes.length);
        err.flush();
    }

    /** Sends lines to {@code to} instead of stderr (tests); null: stderr again. */
    static void redirect(Consumer<String> to) {
        sink = to;
    }

    /** The settings a process starts with (tests). */
    static void reset() {
        settings = new Settings(Level.INFO, LogFormat.TEXT);
    }
}
