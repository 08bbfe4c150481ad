package io.podnuma.agent.pods;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.pod.Resources;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The pod budget annotation, for clusters whose API server lacks {@code pod.spec.resources}: a JSON object
 * shaped like {@code pod.spec.resources}, e.g.
 * {@code {"requests":{"cpu":"8","memory":"16Gi"},"limits":{"cpu":"8","memory":"16Gi"}}}. Quantities are
 * strings or numbers; keys other than {@code requests} and {@code limits} are refused (a typo would silently
 * drop the budget otherwise).
 */
public final class BudgetAnnotation {

    /** A repeated key is refused: which of the two values was meant cannot be known. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private static final Set<String> KEYS = Set.of("requests", "limits");

    private BudgetAnnotation() {}

    /**
     * @param key the annotation key, for error messages
     * @throws PodMappingException naming the annotation, the field and the value
     */
    public static Resources parse(String key, String value) {
        String field = "metadata.annotations[" + key + "]";
        JsonNode root;
        try {
            root = JSON.readTree(value == null ? "" : value);
        } catch (JsonProcessingException e) {
            throw new PodMappingException(field + " is not valid JSON (" + e.getOriginalMessage()
                    + "): expected an object like {\"requests\":{\"cpu\":\"8\",\"memory\":\"16Gi\"},\"limits\":{...}}");
        }
        if (root == null || !root.isObject()) {
            throw new PodMappingException(field + " must be a JSON object with requests and/or limits, got: " + value);
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!KEYS.contains(name)) {
                throw new PodMappingException(
                        field + " has an unknown key \"" + name + "\": allowed requests and limits");
            }
        }
        Resources r = ResourceListMapper.resources(
                field,
                quantities(field + ".requests", root.get("requests")),
                quantities(field + ".limits", root.get("limits")));
        if (!r.hasCpuOrMemory()) {
            throw new PodMappingException(
                    field + " names neither cpu nor memory: " + value
                            + ": allowed a budget with cpu and/or memory, e.g. {\"limits\":{\"cpu\":\"4\",\"memory\":\"4Gi\"}}");
        }
        return r;
    }

    private static Map<String, String> quantities(String field, JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new PodMappingException(field + " must be an object of resource name to quantity, got: " + node);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode q = e.getValue();
            String name = e.getKey();
            if (!name.equals("cpu") && !name.equals("memory") && !name.startsWith("hugepages-")) {
                // Pod-level resources take only these (the API server refuses others in pod.spec.resources).
                throw new PodMappingException(
                        field + " has an unknown resource \"" + name + "\": allowed cpu, memory and hugepages-<size>");
            }
            if (!q.isTextual() && !q.isNumber()) {
                throw new PodMappingException(
                        field + "." + e.getKey() + " must be a quantity string such as \"2\" or \"4Gi\", got: " + q);
            }
            out.put(e.getKey(), q.asText());
        }
        return out;
    }
}
