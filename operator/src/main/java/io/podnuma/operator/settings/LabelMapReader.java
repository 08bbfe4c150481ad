package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.podnuma.crds.settings.InvalidValueException;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.crds.settings.ValueProblem;
import io.podnuma.operator.render.LabelSyntax;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A map of labels (or node-selector terms, or annotations) written as a YAML or JSON map of text to text, with
 * Kubernetes' syntax for its keys and values and without the keys the operator sets itself. Every bad entry is
 * reported, each at its key.
 */
final class LabelMapReader {

    /** What is wrong with a key or a value, if anything (said after "allowed"). */
    interface Rule {
        Optional<String> problem(String text);
    }

    private final List<String> reserved;
    private final String reservedReason;
    private final Rule keyRule;
    private final Rule valueRule;

    /**
     * Labels: Kubernetes' label key and value syntax.
     *
     * @param reserved keys the map may not set
     * @param reservedReason why, said after the key: {@code the operator sets it ...}
     */
    LabelMapReader(List<String> reserved, String reservedReason) {
        this(reserved, reservedReason, LabelSyntax::keyProblem, LabelSyntax::valueProblem);
    }

    LabelMapReader(List<String> reserved, String reservedReason, Rule keyRule, Rule valueRule) {
        this.reserved = List.copyOf(reserved);
        this.reservedReason = reservedReason;
        this.keyRule = keyRule;
        this.valueRule = valueRule;
    }

    static String rule(String what) {
        return "a map of " + what + ", e.g. {\"example.com/tier\":\"infra\"} ({} for none)";
    }

    SortedMap<String, String> read(JsonNode map) {
        List<ValueProblem> problems = new ArrayList<>();
        SortedMap<String, String> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            String path = "[" + TextNode.valueOf(key) + "]";
            JsonNode v = e.getValue();
            int before = problems.size();
            keyRule.problem(key).ifPresent(p -> problems.add(new ValueProblem(path, v.toString(), "allowed " + p)));
            if (reserved.contains(key)) {
                problems.add(new ValueProblem(
                        path, v.toString(), reservedReason + ": allowed any key but " + String.join(", ", reserved)));
            }
            if (!v.isTextual()) {
                problems.add(new ValueProblem(
                        path, v.toString(), "allowed text (quote it in YAML), found " + SettingType.a(v)));
            } else {
                valueRule
                        .problem(v.asText())
                        .ifPresent(p -> problems.add(new ValueProblem(path, v.toString(), "allowed " + p)));
            }
            if (problems.size() == before) {
                out.put(key, v.asText());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        return Collections.unmodifiableSortedMap(out);
    }
}
