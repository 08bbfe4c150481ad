package io.podnuma.helm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The README's values table, made from the schema (types, descriptions) and values.yaml (defaults): one row per
 * leaf value in schema order. A leaf is anything but an object with its own {@code properties}: scalars, lists, maps.
 */
final class ValuesTable {

    static final String START = "<!-- values-table:start (generated from values.schema.json by ChartReadmeTest) -->";
    static final String END = "<!-- values-table:end -->";

    /** One value: its dotted key, its JSON type(s), its default as compact JSON (empty: none) and what it does. */
    record Row(String key, String type, String defaultValue, String description) {
        String markdown() {
            return "| `" + key + "` | " + type + " | " + (defaultValue.isEmpty() ? "" : "`" + defaultValue + "`")
                    + " | " + description.replace("|", "\\|") + " |";
        }
    }

    private ValuesTable() {}

    static List<Row> rows(JsonNode schema, JsonNode values) {
        List<Row> rows = new ArrayList<>();
        walk("", schema, values, rows);
        return rows;
    }

    static String markdown(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append(START).append('\n');
        out.append("| Key | Type | Default | Description |\n");
        out.append("|---|---|---|---|\n");
        rows.forEach(r -> out.append(r.markdown()).append('\n'));
        out.append(END);
        return out.toString();
    }

    /** The README with its table replaced by {@code table}. */
    static String replaceTable(String readme, String table) {
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("the README has no table between " + START + " and " + END);
        }
        return readme.substring(0, start) + table + readme.substring(end + END.length());
    }

    private static void walk(String prefix, JsonNode schema, JsonNode values, List<Row> rows) {
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            String key = prefix.isEmpty() ? property.getKey() : prefix + "." + property.getKey();
            JsonNode sub = property.getValue();
            JsonNode value = values == null ? null : values.get(property.getKey());
            if (sub.has("properties")) {
                walk(key, sub, value, rows);
            } else {
                rows.add(new Row(
                        key,
                        type(sub),
                        value == null ? "" : value.toString(),
                        sub.path("description").asText()));
            }
        }
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        String base = type.isArray()
                ? StreamSupport.stream(type.spliterator(), false)
                        .map(JsonNode::asText)
                        .collect(Collectors.joining(" or "))
                : type.asText();
        if (schema.has("enum")) {
            return base + ": "
                    + StreamSupport.stream(schema.get("enum").spliterator(), false)
                            .map(v -> v.asText().isEmpty() ? "\"\"" : v.asText())
                            .collect(Collectors.joining(", "));
        }
        return base;
    }
}
