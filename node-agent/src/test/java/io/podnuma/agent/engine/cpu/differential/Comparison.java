package io.podnuma.agent.engine.cpu.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The field-by-field differences between the Java engine's and the kubelet's answers to one case.
 * Each difference names where it is ({@code op 3 cpus}) and both values.
 */
record Comparison(DiffCase input, Outcome java, Outcome kubelet, List<String> differences) {

    static Comparison of(DiffCase input, Outcome java, Outcome kubelet) {
        List<String> diffs = new ArrayList<>();
        // Ops the kubelet never finished (it hung) have nothing to compare with.
        int comparable = kubelet.hang()
                ? kubelet.ops().size()
                : Math.max(java.ops().size(), kubelet.ops().size());
        boolean kubeletHungBeforeStart =
                kubelet.hang() && kubelet.ops().isEmpty() && kubelet.reserved().isEmpty();
        field(diffs, "refused", java.createError() != null, kubelet.createError() != null);
        if (java.createError() != null && kubelet.createError() != null) {
            field(diffs, "refusal message", java.createError(), kubelet.createError());
        }
        if (!kubeletHungBeforeStart) {
            field(diffs, "reserved", java.reserved(), kubelet.reserved());
            field(diffs, "initial shared pool", java.defaultSet(), kubelet.defaultSet());
        }
        for (int i = 0; i < comparable; i++) {
            Outcome.OpOutcome j = i < java.ops().size() ? java.ops().get(i) : null;
            Outcome.OpOutcome k = i < kubelet.ops().size() ? kubelet.ops().get(i) : null;
            if (j == null || k == null) {
                diffs.add("op " + i + ": java " + (j == null ? "missing" : "present") + ", kubelet "
                        + (k == null ? "missing" : "present"));
                continue;
            }
            String at = "op " + i + " ";
            field(diffs, at + "hints", j.hints(), k.hints());
            field(diffs, at + "cpus", j.cpus(), k.cpus());
            field(diffs, at + "error reason", j.errorReason(), k.errorReason());
            field(diffs, at + "error message", j.errorMessage(), k.errorMessage());
            field(diffs, at + "shared pool", j.defaultSet(), k.defaultSet());
        }
        return new Comparison(input, java, kubelet, List.copyOf(diffs));
    }

    private static void field(List<String> diffs, String name, Object java, Object kubelet) {
        if (!Objects.equals(java, kubelet)) {
            diffs.add(name + ": java=" + java + " kubelet=" + kubelet);
        }
    }

    boolean agrees() {
        return differences.isEmpty() && !kubelet.hang();
    }
}
