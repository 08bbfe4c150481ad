package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Affinity;
import io.podnuma.crds.settings.InvalidValueException;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.crds.settings.ValueProblem;
import io.podnuma.operator.render.AgentExtras;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The agent pods' extras ({@link AgentExtras}): a list of {name, value} variables, a list of arguments, and an
 * Affinity map. Every bad entry is reported at its index; the affinity's fields are left to the API server, only its
 * three top-level keys are checked (a misspelt one would otherwise vanish silently).
 */
final class AgentExtrasReader {

    static final String ENV_RULE = "a list of {\"name\": ..., \"value\": ...} with text values, e.g."
            + " [{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Xlog:gc\"}] ([] for none)";
    static final String ARGS_RULE =
            "a list of text arguments of node-agent run, e.g. [\"--flag\",\"value\"] ([] for" + " none)";
    static final String AFFINITY_RULE =
            "a Kubernetes Affinity, a map of nodeAffinity, podAffinity and podAntiAffinity" + " ({} for none)";

    private static final Set<String> AFFINITY_KEYS = Set.of("nodeAffinity", "podAffinity", "podAntiAffinity");
    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentExtrasReader() {}

    static List<AgentExtras.Env> env(JsonNode list) {
        List<ValueProblem> problems = new ArrayList<>();
        List<AgentExtras.Env> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String path = "[" + i + "]";
            Set<String> keys = new HashSet<>();
            item.fieldNames().forEachRemaining(keys::add);
            if (!item.isObject()
                    || !item.path("name").isTextual()
                    || !item.path("value").isTextual()
                    || !Set.of("name", "value").equals(keys)) {
                problems.add(new ValueProblem(
                        path, item.toString(), "allowed {\"name\": text, \"value\": text} (no valueFrom)"));
                continue;
            }
            String name = item.get("name").asText();
            AgentExtras.envNameProblem(name)
                    .ifPresent(p -> problems.add(
                            new ValueProblem(path + ".name", item.get("name").toString(), "allowed " + p)));
            if (!seen.add(name)) {
                problems.add(new ValueProblem(path + ".name", item.get("name").toString(), "set twice"));
            }
            out.add(new AgentExtras.Env(name, item.get("value").asText()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        return List.copyOf(out);
    }

    static List<String> args(JsonNode list) {
        List<ValueProblem> problems = new ArrayList<>();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            if (!item.isTextual()) {
                problems.add(new ValueProblem(
                        "[" + i + "]",
                        item.toString(),
                        "allowed text (quote it in YAML), found " + SettingType.a(item)));
            } else {
                out.add(item.asText());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        return List.copyOf(out);
    }

    static Affinity affinity(JsonNode map) {
        List<ValueProblem> problems = new ArrayList<>();
        map.fieldNames().forEachRemaining(k -> {
            if (!AFFINITY_KEYS.contains(k)) {
                problems.add(new ValueProblem("[\"" + k + "\"]", map.get(k).toString(), "allowed " + AFFINITY_RULE));
            }
        });
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        try {
            return JSON.treeToValue(map, Affinity.class);
        } catch (Exception e) {
            throw new InvalidValueException(new ValueProblem(
                    "",
                    map.toString(),
                    "allowed " + AFFINITY_RULE + " ("
                            + e.getMessage().lines().findFirst().orElse("") + ")"));
        }
    }
}
