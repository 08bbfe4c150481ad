package io.podnuma.controlplane;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The answers of Prometheus's HTTP API ({@code /api/v1/...}) as types, parsed from their JSON: instant query
 * samples, active targets, rule groups and alerts. Pure: {@link PrometheusServer} does the HTTP.
 */
public final class PrometheusApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PrometheusApi() {}

    /** One sample of an instant query: the series' labels ({@code __name__} included) and its value at a time. */
    public record Sample(Map<String, String> labels, double value, Instant timestamp) {
        public Sample {
            labels = Map.copyOf(labels);
        }

        /** The metric name, empty for the result of an expression that dropped it (a sum, say). */
        public String metricName() {
            return labels.getOrDefault("__name__", "");
        }
    }

    /** What the last scrape of a target said; {@code unknown} until its first scrape ends. */
    public enum TargetHealth {
        UP,
        DOWN,
        UNKNOWN;

        static TargetHealth parse(String health) {
            return valueOf(health.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One active target: the labels after relabelling (what its series carry), the labels service discovery gave
     * before it ({@code __meta_kubernetes_...}), its health and the error of the last scrape (empty when it worked).
     */
    public record Target(
            String scrapePool,
            String scrapeUrl,
            Map<String, String> labels,
            Map<String, String> discoveredLabels,
            TargetHealth health,
            String lastError) {
        public Target {
            labels = Map.copyOf(labels);
            discoveredLabels = Map.copyOf(discoveredLabels);
        }
    }

    public enum RuleKind {
        ALERTING,
        RECORDING
    }

    /** Whether the rule's last evaluation worked. */
    public enum RuleHealth {
        OK,
        ERR,
        UNKNOWN;

        static RuleHealth parse(String health) {
            return valueOf(health.toUpperCase(Locale.ROOT));
        }
    }

    /** An alerting rule's or one alert's state; recording rules have none. */
    public enum AlertState {
        INACTIVE,
        PENDING,
        FIRING;

        static AlertState parse(String state) {
            return valueOf(state.toUpperCase(Locale.ROOT));
        }
    }

    /** One rule as loaded and last evaluated; {@code state} only for alerting rules. */
    public record Rule(
            String name,
            RuleKind kind,
            String query,
            RuleHealth health,
            Optional<AlertState> state,
            String lastError) {}

    public record RuleGroup(String name, String file, List<Rule> rules) {
        public RuleGroup {
            rules = List.copyOf(rules);
        }
    }

    /** One pending or firing alert with its labels (the alert name is {@code alertname}). */
    public record Alert(Map<String, String> labels, AlertState state, double value) {
        public Alert {
            labels = Map.copyOf(labels);
        }

        public String name() {
            return labels.getOrDefault("alertname", "");
        }
    }

    /** The API answered {@code "status": "error"}: a bad query, a timeout. */
    public static final class ApiException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String errorType;

        ApiException(String errorType, String error) {
            super(errorType + ": " + error);
            this.errorType = errorType;
        }

        /** {@code bad_data}, {@code timeout}, {@code execution}, ... as the API names it. */
        public String errorType() {
            return errorType;
        }
    }

    /** The result of {@code /api/v1/query}: a vector's samples, or a scalar as one sample without labels. */
    public static List<Sample> samples(String json) {
        JsonNode data = data(json);
        String type = data.path("resultType").asText();
        JsonNode result = data.path("result");
        return switch (type) {
            case "vector" -> {
                List<Sample> samples = new ArrayList<>();
                for (JsonNode s : result) {
                    samples.add(sample(labels(s.path("metric")), s.path("value")));
                }
                yield List.copyOf(samples);
            }
            case "scalar" -> List.of(sample(Map.of(), result));
            default ->
                throw new IllegalArgumentException(
                        "an instant query of a vector or scalar was expected, the result is a " + type + ": " + json);
        };
    }

    /** The active targets of {@code /api/v1/targets} (dropped ones are left out). */
    public static List<Target> activeTargets(String json) {
        List<Target> targets = new ArrayList<>();
        for (JsonNode t : data(json).path("activeTargets")) {
            targets.add(new Target(
                    t.path("scrapePool").asText(),
                    t.path("scrapeUrl").asText(),
                    labels(t.path("labels")),
                    labels(t.path("discoveredLabels")),
                    TargetHealth.parse(t.path("health").asText("unknown")),
                    t.path("lastError").asText("")));
        }
        return List.copyOf(targets);
    }

    /** The rule groups of {@code /api/v1/rules}. */
    public static List<RuleGroup> ruleGroups(String json) {
        List<RuleGroup> groups = new ArrayList<>();
        for (JsonNode g : data(json).path("groups")) {
            List<Rule> rules = new ArrayList<>();
            for (JsonNode r : g.path("rules")) {
                RuleKind kind = "alerting".equals(r.path("type").asText()) ? RuleKind.ALERTING : RuleKind.RECORDING;
                rules.add(new Rule(
                        r.path("name").asText(),
                        kind,
                        r.path("query").asText(),
                        RuleHealth.parse(r.path("health").asText("unknown")),
                        kind == RuleKind.ALERTING
                                ? Optional.of(AlertState.parse(r.path("state").asText()))
                                : Optional.empty(),
                        r.path("lastError").asText("")));
            }
            groups.add(new RuleGroup(g.path("name").asText(), g.path("file").asText(), rules));
        }
        return List.copyOf(groups);
    }

    /** The pending and firing alerts of {@code /api/v1/alerts}. */
    public static List<Alert> alerts(String json) {
        List<Alert> alerts = new ArrayList<>();
        for (JsonNode a : data(json).path("alerts")) {
            alerts.add(new Alert(
                    labels(a.path("labels")),
                    AlertState.parse(a.path("state").asText()),
                    value(a.path("value").asText("NaN"))));
        }
        return List.copyOf(alerts);
    }

    /** A sample value as the API writes it: a string, so that NaN and the infinities survive JSON. */
    static double value(String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    private static JsonNode data(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON from the Prometheus API: " + e.getOriginalMessage(), e);
        }
        String status = root.path("status").asText();
        if ("error".equals(status)) {
            throw new ApiException(
                    root.path("errorType").asText(), root.path("error").asText());
        }
        if (!"success".equals(status)) {
            throw new IllegalArgumentException(
                    "not an answer of the Prometheus API (status '" + status + "'): " + json);
        }
        return root.path("data");
    }

    /** {@code [<unix seconds, fractional>, "<value>"]}. */
    private static Sample sample(Map<String, String> labels, JsonNode pair) {
        if (!pair.isArray() || pair.size() != 2) {
            throw new IllegalArgumentException("a sample is [time, \"value\"], not " + pair);
        }
        BigDecimal seconds = pair.get(0).decimalValue();
        Instant at = Instant.ofEpochSecond(
                seconds.longValue(),
                seconds.remainder(BigDecimal.ONE).movePointRight(9).intValue());
        return new Sample(labels, value(pair.get(1).asText()), at);
    }

    private static Map<String, String> labels(JsonNode object) {
        Map<String, String> labels = new LinkedHashMap<>();
        object.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }
}
