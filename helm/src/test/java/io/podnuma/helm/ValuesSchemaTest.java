package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * values.schema.json describes values.yaml completely: every value typed and described, every object closed
 * (additionalProperties false, so a misspelt key fails the install) unless it is a map or a Kubernetes type
 * passed through, and every default valid against its own rule where the rule is a type.
 */
class ValuesSchemaTest {

    /** Objects whose keys are the user's: label maps, resources, and Kubernetes types handed on as they are. */
    private static final Set<String> OPEN_OBJECTS = Set.of(
            "global",
            "commonLabels",
            "operator.resources.requests",
            "operator.resources.limits",
            "operator.nodeSelector",
            "operator.affinity",
            "operator.podLabels",
            "operator.podAnnotations",
            "operator.podSecurityContext",
            "operator.securityContext",
            "operator.extraEnv[]",
            "agent.nodeSelector",
            "agent.affinity",
            "agent.securityContext",
            "agent.podLabels",
            "agent.podAnnotations");

    @Test
    void everyPropertyIsTypedAndDescribed() {
        List<String> problems = new ArrayList<>();
        check("", ChartFiles.schema(), problems);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyValueInValuesYamlIsInTheSchema() {
        List<String> missing = new ArrayList<>();
        covered("", ChartFiles.values(), ChartFiles.schema(), missing);
        assertThat(missing).as("values.yaml keys the schema does not declare").isEmpty();
    }

    @Test
    void everyLeafOfTheSchemaHasADefaultInValuesYaml() {
        assertThat(ValuesTable.rows(ChartFiles.schema(), ChartFiles.values()))
                .filteredOn(row -> !row.key().equals("global"))
                .filteredOn(row -> row.defaultValue().isEmpty())
                .as("schema values without a default in values.yaml")
                .isEmpty();
    }

    private static void check(String path, JsonNode schema, List<String> problems) {
        String where = path.isEmpty() ? "(root)" : path;
        if (!schema.hasNonNull("type")) {
            problems.add(where + " has no type");
        }
        if (!path.isEmpty() && schema.path("description").asText().isBlank()) {
            problems.add(where + " has no description");
        }
        if ("object".equals(schema.path("type").asText()) && !OPEN_OBJECTS.contains(path)) {
            JsonNode additional = schema.get("additionalProperties");
            if (additional == null || (additional.isBoolean() && additional.asBoolean())) {
                problems.add(where + " is an object open to any key: set additionalProperties false (or list it"
                        + " in OPEN_OBJECTS with the reason)");
            }
        }
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            check(path.isEmpty() ? p.getKey() : path + "." + p.getKey(), p.getValue(), problems);
        }
        if (schema.path("items").has("properties")) {
            check(path + "[]", schema.get("items"), problems);
        }
    }

    private static void covered(String path, JsonNode values, JsonNode schema, List<String> missing) {
        if (!values.isObject() || !schema.has("properties")) {
            return;
        }
        for (Map.Entry<String, JsonNode> v : values.properties()) {
            String key = path.isEmpty() ? v.getKey() : path + "." + v.getKey();
            JsonNode sub = schema.path("properties").get(v.getKey());
            if (sub == null) {
                missing.add(key);
            } else {
                covered(key, v.getValue(), sub, missing);
            }
        }
    }
}
