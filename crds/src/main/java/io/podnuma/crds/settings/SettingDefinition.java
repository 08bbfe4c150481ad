package io.podnuma.crds.settings;

import java.util.Locale;
import java.util.Objects;

/**
 * A setting of the agent or the operator, as {@link SettingSources} reads it and {@link SettingsHelp} lists it: a key
 * in the file, a flag and an environment variable named after it, a default and how its value is read. Each component
 * has an enum of these.
 */
public interface SettingDefinition {

    /**
     * What a setting is, apart from its environment variable.
     *
     * @param key the key in the YAML file, e.g. {@code metricsPort}
     * @param defaultValue the value used when no source sets it; null: required
     * @param description what it does and which values it takes, for {@code --help} and the required-setting message
     * @param type how its value is written and read
     */
    record Spec(String key, String defaultValue, String description, SettingType type) {
        public Spec {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(type, "type");
        }
    }

    Spec spec();

    /** The environment variable, e.g. {@code PODNUMA_METRICS_PORT}. */
    String env();

    default String key() {
        return spec().key();
    }

    default String defaultValue() {
        return spec().defaultValue();
    }

    default String description() {
        return spec().description();
    }

    default SettingType type() {
        return spec().type();
    }

    /** The long flag without dashes: {@code metricsPort} → {@code metrics-port}. */
    default String flag() {
        return key().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    /** Its row in {@code run --help}. */
    default SettingsHelp.Row helpRow() {
        return new SettingsHelp.Row(
                flag(),
                env(),
                defaultValue(),
                type() instanceof SettingType.Structure
                        ? description() + " (JSON as a flag or variable, YAML in the file)"
                        : description());
    }
}
