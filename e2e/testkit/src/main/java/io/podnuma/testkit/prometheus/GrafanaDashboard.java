package io.podnuma.testkit.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart's Grafana dashboard ({@code helm/podnuma/dashboards/podnuma.json}) as a test reads it: its template
 * variables and panel queries, and the queries as Grafana sends them to Prometheus once the variables have values, so
 * a real Prometheus can answer what a user of the dashboard would see.
 *
 * @param json the dashboard
 */
public record GrafanaDashboard(JsonNode json) {

    /** The chart's dashboard file in this checkout. */
    public static final String FILE = "helm/podnuma/dashboards/podnuma.json";

    /** One panel query. */
    public record Target(String panel, String refId, String expr) {
        @Override
        public String toString() {
            return panel + " " + refId + ": " + expr;
        }
    }

    /** The values of {@code label} among the series {@code selector} selects. */
    public record LabelValues(String selector, String label) {}

    /** A query variable: {@code label_values(<selector>, <label>)}. */
    public record Variable(String name, String query, boolean multi, boolean includeAll, String allValue) {

        private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*(\\w+)\\s*\\)");

        /** The selector and the label of a {@code label_values} query; empty for another kind of query. */
        public Optional<LabelValues> labelValues() {
            Matcher m = LABEL_VALUES.matcher(query.strip());
            return m.matches() ? Optional.of(new LabelValues(m.group(1).strip(), m.group(2))) : Optional.empty();
        }

        /**
         * The PromQL whose result series carry the values Grafana lists: Grafana asks Prometheus for the label's
         * values among the selector's series, which are the groups of {@code count by (label)} (at one instant here,
         * over the dashboard's time range in Grafana).
         */
        public String asPromQl() {
            LabelValues lv = labelValues()
                    .orElseThrow(() -> new IllegalStateException(name + " is not a label_values query: " + query));
            return "count by (" + lv.label() + ") (" + lv.selector() + ")";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");
    /**
     * What Grafana's Prometheus data source escapes in a multi-value variable's value (its
     * {@code prometheusSpecialRegexEscape}): regex syntax but {@code |}, after doubling each backslash.
     */
    private static final Pattern REGEX_SYNTAX = Pattern.compile("[$^*{}\\[\\]+?.()]");

    /** The chart's dashboard of this checkout. */
    public static GrafanaDashboard ofChart() {
        return read(Repository.resolve(FILE));
    }

    public static GrafanaDashboard read(Path file) {
        try {
            return new GrafanaDashboard(JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard " + file, e);
        }
    }

    /** The query variables (not the data source one), in the dashboard's order. */
    public List<Variable> queryVariables() {
        List<Variable> vars = new ArrayList<>();
        for (JsonNode v : json.at("/templating/list")) {
            if (v.path("type").asText().equals("query")) {
                JsonNode q = v.path("query");
                vars.add(new Variable(
                        v.path("name").asText(),
                        q.isObject() ? q.path("query").asText() : q.asText(),
                        v.path("multi").asBoolean(),
                        v.path("includeAll").asBoolean(),
                        v.path("allValue").isNull() ? null : v.path("allValue").asText(null)));
            }
        }
        return vars;
    }

    /** Every panel's queries, panel by panel. */
    public List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        for (JsonNode panel : json.path("panels")) {
            for (JsonNode t : panel.path("targets")) {
                targets.add(new Target(
                        panel.path("title").asText(),
                        t.path("refId").asText(),
                        t.path("expr").asText()));
            }
        }
        return targets;
    }

    /**
     * {@code expr} with the variables replaced the way Grafana's Prometheus data source does for multi-value
     * variables: one value regex-escaped (inside a PromQL string, so its backslash doubled), several as
     * {@code (a|b)}; {@code $__rate_interval} by {@code rateInterval}. A variable without a value is an error, so a
     * test cannot send a query with a {@code $} left in it.
     *
     * @param values each variable's selected values; the "All" of a variable is its allValue, given as is in
     *     {@code raw}
     * @param raw values put in without escaping (an allValue such as {@code .*})
     */
    public static String interpolate(
            String expr, Map<String, List<String>> values, Map<String, String> raw, String rateInterval) {
        Matcher m = VARIABLE.matcher(expr);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String value;
            if (name.equals("__rate_interval")) {
                value = rateInterval;
            } else if (raw.containsKey(name)) {
                value = raw.get(name);
            } else if (values.containsKey(name) && !values.get(name).isEmpty()) {
                List<String> escaped = values.get(name).stream()
                        .map(v -> REGEX_SYNTAX
                                .matcher(v.replace("\\", "\\\\\\\\"))
                                .replaceAll("\\\\\\\\$0"))
                        .toList();
                value = escaped.size() == 1 ? escaped.get(0) : "(" + String.join("|", escaped) + ")";
            } else {
                throw new IllegalArgumentException("no value for $" + name + " in " + expr);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
