package io.podnuma.securemetrics;

import java.util.Locale;

/** How {@code /metrics} is served: the setting {@code metricsSecurity}. */
public enum MetricsSecurity {
    /** Plain HTTP, anyone who reaches the port may scrape (the default, as before). */
    HTTP,
    /** HTTPS, and every scrape needs a bearer token whose identity may {@code get /metrics}. */
    HTTPS;

    public String settingName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException saying what is allowed */
    public static MetricsSecurity parse(String v) {
        for (MetricsSecurity s : values()) {
            if (s.settingName().equals(v)) {
                return s;
            }
        }
        throw new IllegalArgumentException("allowed http or https");
    }
}
