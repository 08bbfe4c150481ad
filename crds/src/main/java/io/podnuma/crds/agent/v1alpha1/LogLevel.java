package io.podnuma.crds.agent.v1alpha1;

import java.util.Locale;

/** The agent's log level, as slf4j names them; the config file spells them in lower case. */
public enum LogLevel {
    TRACE,
    DEBUG,
    INFO,
    WARN,
    ERROR;

    /** Case-insensitive: {@code info}, {@code INFO}. */
    public static LogLevel parse(String value) {
        for (LogLevel l : values()) {
            if (l.name().equalsIgnoreCase(value)) {
                return l;
            }
        }
        throw new IllegalArgumentException("allowed trace, debug, info, warn, error");
    }

    /** As the config file writes it. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
