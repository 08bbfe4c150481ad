package io.podnuma.operator.settings;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.crds.settings.InvalidValueException;
import io.podnuma.crds.settings.SettingType;
import io.podnuma.crds.settings.ValueProblem;
import io.podnuma.operator.render.AgentToleration;
import io.podnuma.operator.render.LabelSyntax;
import io.podnuma.operator.render.TaintEffect;
import io.podnuma.operator.render.TolerationOperator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A list of tolerations as the pod spec writes them ({@code [{key: a, operator: Exists, effect: NoSchedule}]}),
 * checked as the API server would check them, every problem at its path. An empty text or a null field is the field
 * left out; a toleration without an operator is {@code Equal}, as in Kubernetes.
 */
final class TolerationReader {

    static final String RULE = "a list of tolerations, e.g. [{\"key\":\"dedicated\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}] ([] for none)";

    private static final List<String> FIELDS = List.of("key", "operator", "value", "effect", "tolerationSeconds");

    private TolerationReader() {}

    static List<AgentToleration> read(JsonNode list) {
        List<ValueProblem> problems = new ArrayList<>();
        List<AgentToleration> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String path = "[" + i + "]";
            JsonNode t = list.get(i);
            if (!t.isObject()) {
                problems.add(new ValueProblem(
                        path,
                        t.toString(),
                        "allowed a toleration: a map of " + String.join(", ", FIELDS) + ", found " + SettingType.a(t)));
                continue;
            }
            read(path, t, problems).ifPresent(out::add);
        }
        if (!problems.isEmpty()) {
            throw new InvalidValueException(problems);
        }
        return out;
    }

    private static Optional<AgentToleration> read(String path, JsonNode t, List<ValueProblem> problems) {
        int before = problems.size();
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!FIELDS.contains(f.getKey())) {
                problems.add(new ValueProblem(
                        path + "." + f.getKey(),
                        f.getValue().toString(),
                        "unknown field: allowed " + String.join(", ", FIELDS)));
            }
        }
        Optional<String> key = text(path, t, "key", problems);
        key.ifPresent(k -> LabelSyntax.keyProblem(k)
                .ifPresent(p -> problems.add(
                        new ValueProblem(path + ".key", t.get("key").toString(), "allowed " + p))));
        Optional<String> value = text(path, t, "value", problems);
        value.ifPresent(v -> LabelSyntax.valueProblem(v)
                .ifPresent(p -> problems.add(
                        new ValueProblem(path + ".value", t.get("value").toString(), "allowed " + p))));
        TolerationOperator operator = TolerationOperator.EQUAL;
        Optional<String> operatorText = text(path, t, "operator", problems);
        if (operatorText.isPresent()) {
            Optional<TolerationOperator> o =
                    wire(TolerationOperator.values(), TolerationOperator::wire, operatorText.get());
            o.ifPresentOrElse(
                    x -> {},
                    () -> problems.add(new ValueProblem(
                            path + ".operator", t.get("operator").toString(), "allowed Exists or Equal")));
            operator = o.orElse(operator);
        }
        Optional<String> effectText = text(path, t, "effect", problems);
        Optional<TaintEffect> effect = effectText.flatMap(e -> wire(TaintEffect.values(), TaintEffect::wire, e));
        if (effectText.isPresent() && effect.isEmpty()) {
            problems.add(new ValueProblem(
                    path + ".effect",
                    t.get("effect").toString(),
                    "allowed "
                            + Arrays.stream(TaintEffect.values())
                                    .map(TaintEffect::wire)
                                    .collect(Collectors.joining(", "))
                            + " or empty (every effect)"));
        }
        Optional<Long> seconds = seconds(path, t, problems);
        if (problems.size() > before) {
            return Optional.empty();
        }
        List<String> conflicts = AgentToleration.conflicts(key, operator, value, effect, seconds);
        conflicts.forEach(c -> problems.add(new ValueProblem(path, t.toString(), c)));
        return conflicts.isEmpty()
                ? Optional.of(new AgentToleration(key, operator, value, effect, seconds))
                : Optional.empty();
    }

    /** A text field; null, missing or empty: left out. */
    private static Optional<String> text(String path, JsonNode t, String field, List<ValueProblem> problems) {
        JsonNode v = t.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            problems.add(new ValueProblem(
                    path + "." + field, v.toString(), "allowed text (quote it in YAML), found " + SettingType.a(v)));
            return Optional.empty();
        }
        return v.asText().isEmpty() ? Optional.empty() : Optional.of(v.asText());
    }

    private static Optional<Long> seconds(String path, JsonNode t, List<ValueProblem> problems) {
        JsonNode v = t.get("tolerationSeconds");
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            problems.add(new ValueProblem(
                    path + ".tolerationSeconds", v.toString(), "allowed a whole number of seconds, 0 or more"));
            return Optional.empty();
        }
        return Optional.of(v.asLong());
    }

    private static <E> Optional<E> wire(E[] values, java.util.function.Function<E, String> wire, String text) {
        return Arrays.stream(values).filter(e -> wire.apply(e).equals(text)).findFirst();
    }
}
