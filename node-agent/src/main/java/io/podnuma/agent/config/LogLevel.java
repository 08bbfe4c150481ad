package io.podnuma.agent.config;

import java.util.Locale;

/** The agent's log level, as slf4j names them. */
public enum LogLevel {
    TRACE,
    DEBUG,
    INFO,
    WARN,
    ERROR;

    /** Case-insensitive: {@code info}, {@code INFO}. */
    static LogLevel parse(String value) {
        for (LogLevel l : values()) {
            if (l.name().equalsIgnoreCase(value)) {
                return l;
            }
        }
        throw new IllegalArgumentException("allowed trace, debug, info, warn, error");
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
