package io.podnuma.logging;

/** A record's severity, as SLF4J names them; a threshold lets through its own level and those above it. */
public enum Level {
    TRACE,
    DEBUG,
    INFO,
    WARN,
    ERROR;

    /** Whether a record of {@code level} passes this threshold. */
    boolean admits(Level level) {
        return level.ordinal() >= ordinal();
    }
}
