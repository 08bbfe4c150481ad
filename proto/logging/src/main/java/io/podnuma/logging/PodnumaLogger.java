package io.podnuma.logging;

import java.io.Serial;
import org.slf4j.Marker;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger that hands its records to {@link Logs}; cheap to ask whether a level is on. The fluent API's
 * key-value pairs reach it through SLF4J's own fallback, as {@code key=value} before the message.
 */
final class PodnumaLogger extends LegacyAbstractLogger {

    @Serial
    private static final long serialVersionUID = 1L;

    PodnumaLogger(String name) {
        this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
        return Logs.enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return Logs.enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return Logs.enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return Logs.enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return Logs.enabled(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
            org.slf4j.event.Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
        String message = MessageFormatter.basicArrayFormat(pattern, arguments);
        Logs.write(new LogRecord(
                System.currentTimeMillis(),
                of(level),
                name,
                Thread.currentThread().getName(),
                message,
                throwable));
    }

    private static Level of(org.slf4j.event.Level level) {
        return switch (level) {
            case TRACE -> Level.TRACE;
            case DEBUG -> Level.DEBUG;
            case INFO -> Level.INFO;
            case WARN -> Level.WARN;
            case ERROR -> Level.ERROR;
        };
    }
}
