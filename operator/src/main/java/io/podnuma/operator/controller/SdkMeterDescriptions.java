package io.podnuma.operator.controller;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * The Java Operator SDK registers its meters without a description, so the exposition has no HELP for them and
 * {@code promtool check metrics} flags each one. This filter gives every such meter a description naming what it
 * counts; podnuma's own meters keep theirs.
 */
final class SdkMeterDescriptions implements MeterFilter {

    static final String PREFIX = "operator.sdk.";

    @Override
    public Meter.Id map(Meter.Id id) {
        if (id.getDescription() != null || !id.getName().startsWith(PREFIX)) {
            return id;
        }
        String what = id.getName().substring(PREFIX.length()).replace('.', ' ');
        return new Meter.Id(
                id.getName(),
                io.micrometer.core.instrument.Tags.of(id.getTags()),
                id.getBaseUnit(),
                "Java Operator SDK: " + what,
                id.getType());
    }
}
