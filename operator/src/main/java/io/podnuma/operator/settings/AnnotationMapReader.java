package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.podnuma.operator.render.AgentAnnotations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A map of pod annotations written as a YAML or JSON map of text to text: Kubernetes' annotation keys, any text as a
 * value, the API server's size limit, and none of the keys the operator sets on the pod template itself. Every bad
 * entry is reported, each at its key.
 */
final class AnnotationMapReader {

    static final String RULE = "a map of annotations, e.g. {\"example.com/note\":\"any text\"} ({} for none)";

    private AnnotationMapReader() {}

    static SortedMap<String, String> read(JsonNode map) {
        List<ValueProblem> problems = new ArrayList<>();
        SortedMap<String, String> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            String path = "[" + TextNode.valueOf(key) + "]";
            JsonNode v = e.getValue();
            int before = problems.size();
            AgentAnnotations.keyProblem(key)
                    .ifPresent(p -> problems.add(new ValueProblem(path, v.toString(), "allowed " + p)));
            if (AgentAnnotations.RESERVED.contains(key)) {
                problems.add(new ValueProblem(
                        path,
                        v.toString(),
                        "the operator sets it on the agent pods: allowed any key but "
                                + String.join(", ", AgentAnnotations.RESERVED)));
            }
            if (!v.isTextual()) {
                problems.add(new ValueProblem(
                        path, v.toString(), "allowed text (quote it in YAML), found " + SettingType.a(v)));
            }
            if (problems.size() == before) {
                out.put(key, v.asText());
            }
        }
        long total = AgentAnnotations.totalBytes(out);
        if (problems.isEmpty() && total > AgentAnnotations.MAX_TOTAL_BYTES) {
            // The map itself would bury the message: its size is what is wrong.
            problems.add(new ValueProblem(
                    "", "(" + total + " bytes of keys and values)", "allowed " + AgentAnnotations.TOTAL_RULE));
        }
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        return Collections.unmodifiableSortedMap(out);
    }
}
