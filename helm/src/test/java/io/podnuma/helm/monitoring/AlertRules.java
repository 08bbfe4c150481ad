package io.podnuma.helm.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The chart's alerts, read from a rule-groups tree (a PrometheusRule's spec, a Prometheus rules file). */
final class AlertRules {

    /** Every alert the chart promises (docs/metrics.md's table). */
    static final List<String> ALERTS = List.of(
            "PodnumaAgentDown",
            "PodnumaAgentMissing",
            "PodnumaKubeletConflict",
            "PodnumaNodeDegraded",
            "PodnumaRepeatedDrift",
            "PodnumaCpusetWriteErrors",
            "PodnumaAdmissionErrorsRising",
            "PodnumaPinLatencyHigh",
            "PodnumaAgentMemoryHigh");

    private AlertRules() {}

    /** Alert name to its rule; fails on an alert name given twice. */
    static Map<String, JsonNode> byName(JsonNode groups) {
        Map<String, JsonNode> alerts = new TreeMap<>();
        for (JsonNode group : groups.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert") && alerts.put(rule.path("alert").asText(), rule) != null) {
                    throw new AssertionError("alert " + rule.path("alert").asText() + " is defined twice");
                }
            }
        }
        return alerts;
    }
}
