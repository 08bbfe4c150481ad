package io.podnuma.agent.engine.cpu.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The field-by-field differences between the Java engine's and the kubelet's answers to one case,
 * grouped by operation ({@link #BEFORE_OPS} for the configuration itself). Each difference names the
 * field and both values.
 */
record Comparison(DiffCase input, Outcome java, Outcome kubelet, Map<Integer, List<String>> byOp) {

    /** The key of differences in the configuration (refusal, reservation, initial pool). */
    static final int BEFORE_OPS = -1;

    static Comparison of(DiffCase input, Outcome java, Outcome kubelet) {
        Map<Integer, List<String>> byOp = new TreeMap<>();
        // Ops the kubelet never finished (it hung) have nothing to compare with.
        int comparable = kubelet.hang()
                ? kubelet.ops().size()
                : Math.max(java.ops().size(), kubelet.ops().size());
        boolean kubeletHungBeforeStart =
                kubelet.hang() && kubelet.ops().isEmpty() && kubelet.reserved().isEmpty();
        List<String> config = new ArrayList<>();
        field(config, "refused", java.createError() != null, kubelet.createError() != null);
        if (java.createError() != null && kubelet.createError() != null) {
            field(config, "refusal message", java.createError(), kubelet.createError());
        }
        if (!kubeletHungBeforeStart) {
            field(config, "reserved", java.reserved(), kubelet.reserved());
            field(config, "initial shared pool", java.defaultSet(), kubelet.defaultSet());
        }
        if (!config.isEmpty()) {
            byOp.put(BEFORE_OPS, List.copyOf(config));
        }
        for (int i = 0; i < comparable; i++) {
            Outcome.OpOutcome j = i < java.ops().size() ? java.ops().get(i) : null;
            Outcome.OpOutcome k = i < kubelet.ops().size() ? kubelet.ops().get(i) : null;
            List<String> diffs = new ArrayList<>();
            if (j == null || k == null) {
                diffs.add("java " + (j == null ? "missing" : "present") + ", kubelet "
                        + (k == null ? "missing" : "present"));
            } else {
                field(diffs, "hints", j.hints(), k.hints());
                field(diffs, "cpus", j.cpus(), k.cpus());
                field(diffs, "error reason", j.errorReason(), k.errorReason());
                field(diffs, "error message", j.errorMessage(), k.errorMessage());
                field(diffs, "shared pool", j.defaultSet(), k.defaultSet());
            }
            if (!diffs.isEmpty()) {
                byOp.put(i, List.copyOf(diffs));
            }
        }
        return new Comparison(input, java, kubelet, byOp);
    }

    private static void field(List<String> diffs, String name, Object java, Object kubelet) {
        if (!Objects.equals(java, kubelet)) {
            diffs.add(name + ": java=" + java + " kubelet=" + kubelet);
        }
    }

    boolean agrees() {
        return byOp.isEmpty() && !kubelet.hang();
    }

    /** Every difference, prefixed with its operation. */
    List<String> differences() {
        List<String> out = new ArrayList<>();
        byOp.forEach((op, diffs) -> diffs.forEach(d -> out.add((op == BEFORE_OPS ? "" : "op " + op + " ") + d)));
        if (kubelet.hang()) {
            out.add("op " + kubelet.ops().size() + " kubelet hung");
        }
        return out;
    }
}
