package io.podnuma.logging;

import java.util.Locale;

/** How a log record is written: one line of text, or one JSON object a line for a log collector. */
public enum LogFormat {
    /** {@code 2026-12-07T00:21:04.123Z [main] INFO io.podnuma.Example - message}, the stack trace below it. */
    TEXT,
    /** {@code {"time":…,"level":…,"logger":…,"thread":…,"message":…,"exception":{…}}}, ASCII only. */
    JSON;

    /** As a settings file writes it: {@code text} or {@code json}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code text} or {@code json}, in lower case as every other value of a setting.
     *
     * @throws IllegalArgumentException saying what is allowed
     */
    public static LogFormat parse(String value) {
        for (LogFormat f : values()) {
            if (f.wireName().equals(value)) {
                return f;
            }
        }
        throw new IllegalArgumentException("allowed text, json");
    }
}
