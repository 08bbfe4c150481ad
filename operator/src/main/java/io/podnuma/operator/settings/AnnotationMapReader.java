package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.crds.settings.InvalidValueException;
import io.podnuma.crds.settings.ValueProblem;
import io.podnuma.operator.render.AgentAnnotations;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A map of pod annotations written as a YAML or JSON map of text to text: Kubernetes' annotation keys, any text as a
 * value, the API server's size limit, and none of the keys the operator sets on the pod template itself. Every bad
 * entry is reported, each at its key.
 */
final class AnnotationMapReader {

    static final String RULE = "a map of annotations, e.g. {\"example.com/note\":\"any text\"} ({} for none)";

    private AnnotationMapReader() {}

    private static final LabelMapReader ENTRIES = new LabelMapReader(
            List.copyOf(AgentAnnotations.RESERVED),
            "the operator sets it on the agent pods",
            AgentAnnotations::keyProblem,
            value -> Optional.empty());

    static SortedMap<String, String> read(JsonNode map) {
        SortedMap<String, String> out = ENTRIES.read(map);
        long total = AgentAnnotations.totalBytes(out);
        if (total > AgentAnnotations.MAX_TOTAL_BYTES) {
            // The map itself would bury the message: its size is what is wrong.
            throw new InvalidValueException(List.of(new ValueProblem(
                    "", "(" + total + " bytes of keys and values)", "allowed " + AgentAnnotations.TOTAL_RULE)));
        }
        return out;
    }
}
