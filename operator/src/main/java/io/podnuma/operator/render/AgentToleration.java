package io.podnuma.operator.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One toleration of the agent pods, as the API server would accept it.
 *
 * @param key empty: every key (then the operator is {@code Exists})
 * @param value only with {@code Equal}
 * @param effect empty: every effect
 * @param tolerationSeconds only with {@code NoExecute}: how long the pod stays on a node that gets the taint
 */
public record AgentToleration(
        Optional<String> key,
        TolerationOperator operator,
        Optional<String> value,
        Optional<TaintEffect> effect,
        Optional<Long> tolerationSeconds) {

    /** Tolerates every taint: what the agent needs to run on every node its policy governs. */
    public static final AgentToleration EVERY_TAINT = new AgentToleration(
            Optional.empty(), TolerationOperator.EXISTS, Optional.empty(), Optional.empty(), Optional.empty());

    public AgentToleration {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(tolerationSeconds, "tolerationSeconds");
        List<String> problems = new ArrayList<>();
        key.flatMap(LabelSyntax::keyProblem).ifPresent(p -> problems.add("key: allowed " + p));
        value.flatMap(LabelSyntax::valueProblem).ifPresent(p -> problems.add("value: allowed " + p));
        tolerationSeconds.filter(s -> s < 0).ifPresent(s -> problems.add("tolerationSeconds: allowed 0 or more"));
        problems.addAll(conflicts(key, operator, value, effect, tolerationSeconds));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("toleration: " + String.join("; ", problems));
        }
    }

    /**
     * What the API server would refuse in how these fields go together (each field's own syntax aside), each saying
     * what is allowed; empty: nothing.
     */
    public static List<String> conflicts(
            Optional<String> key,
            TolerationOperator operator,
            Optional<String> value,
            Optional<TaintEffect> effect,
            Optional<Long> tolerationSeconds) {
        List<String> problems = new ArrayList<>();
        if (key.isEmpty() && operator != TolerationOperator.EXISTS) {
            problems.add("allowed operator Exists without a key (a toleration without a key tolerates every key)");
        }
        if (operator == TolerationOperator.EXISTS && value.isPresent()) {
            problems.add("allowed no value with operator Exists (it tolerates every value of the key)");
        }
        if (tolerationSeconds.isPresent() && effect.orElse(null) != TaintEffect.NO_EXECUTE) {
            problems.add("allowed tolerationSeconds only with effect NoExecute");
        }
        return problems;
    }
}
