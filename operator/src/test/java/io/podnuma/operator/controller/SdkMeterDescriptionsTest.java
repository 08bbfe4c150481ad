package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class SdkMeterDescriptionsTest {

    @Test
    void anSdkMeterWithoutDescriptionGetsHelpAndOthersKeepTheirs() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new SdkMeterDescriptions());
        Counter.builder("operator.sdk.events.received").register(registry).increment();
        Counter.builder("operator.sdk.reconciliations.started")
                .description("as the SDK says")
                .register(registry);
        Counter.builder("podnuma.other").register(registry);

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("# HELP operator_sdk_events_received_total Java Operator SDK: events received")
                .contains("# HELP operator_sdk_reconciliations_started_total as the SDK says")
                .doesNotContain("podnuma_other_total Java Operator SDK");
    }
}
