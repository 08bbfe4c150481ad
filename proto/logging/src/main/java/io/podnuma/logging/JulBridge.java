package io.podnuma.logging;

import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * java.util.logging (gRPC, the JDK's HTTP client through System.Logger) written as the SLF4J records are: the root
 * logger's console handler, which prints two lines a record and a local time, is replaced by this one, and the root
 * level follows the threshold so that loggers below it are not asked to build records nobody writes.
 */
final class JulBridge extends Handler {

    /** Only for {@link Formatter#formatMessage}: fills in {@code {0}} parameters and resource bundles. */
    private static final Formatter MESSAGES = new Formatter() {
        @Override
        public String format(java.util.logging.LogRecord record) {
            return formatMessage(record);
        }
    };

    private static JulBridge installed;

    static synchronized void install(Level threshold) {
        Logger root = LogManager.getLogManager().getLogger("");
        if (installed == null) {
            for (Handler h : root.getHandlers()) {
                root.removeHandler(h);
            }
            installed = new JulBridge();
            root.addHandler(installed);
        }
        root.setLevel(julLevel(threshold));
    }

    @Override
    public void publish(java.util.logging.LogRecord record) {
        Level level = level(record.getLevel());
        if (!Logs.enabled(level)) {
            return;
        }
        Logs.write(new LogRecord(
                record.getMillis(),
                level,
                record.getLoggerName() == null ? "" : record.getLoggerName(),
                // Published on the logging thread: java.util.logging hands the record over synchronously.
                Thread.currentThread().getName(),
                MESSAGES.formatMessage(record),
                record.getThrown()));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    static Level level(java.util.logging.Level jul) {
        int v = jul.intValue();
        if (v >= java.util.logging.Level.SEVERE.intValue()) {
            return Level.ERROR;
        }
        if (v >= java.util.logging.Level.WARNING.intValue()) {
            return Level.WARN;
        }
        if (v >= java.util.logging.Level.CONFIG.intValue()) {
            return Level.INFO;
        }
        if (v >= java.util.logging.Level.FINE.intValue()) {
            return Level.DEBUG;
        }
        return Level.TRACE;
    }

    static java.util.logging.Level julLevel(Level level) {
        return switch (level) {
            case TRACE -> java.util.logging.Level.FINEST;
            case DEBUG -> java.util.logging.Level.FINE;
            case INFO -> java.util.logging.Level.CONFIG;
            case WARN -> java.util.logging.Level.WARNING;
            case ERROR -> java.util.logging.Level.SEVERE;
        };
    }
}
