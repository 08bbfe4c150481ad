package io.podnuma.bench.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether the operator has converged, by the bench's definition: every policy's status describes its current
 * generation and counts the nodes the layout gives it, and every node carries the label the layout gives it. (Without
 * a DaemonSet controller no rollout completes, so Ready and the rollout counters are not part of it.)
 */
final class Convergence {

    private Convergence() {}

    /** The policies not converged yet, each with why (up to {@code limit}); empty when all are. */
    static List<String> pendingPolicies(Map<String, PolicyState> policies, Map<String, Integer> expected, int limit) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            PolicyState p = policies.get(e.getKey());
            String why;
            if (p == null) {
                why = "missing";
            } else if (p.status() == null) {
                why = "no status";
            } else if (!Objects.equals(p.status().observedGeneration(), p.generation())) {
                why = "observedGeneration " + p.status().observedGeneration() + " of " + p.generation();
            } else if (!Objects.equals(p.status().nodesMatched(), e.getValue())) {
                why = "nodesMatched " + p.status().nodesMatched() + " of " + e.getValue();
            } else {
                continue;
            }
            if (out.size() < limit) {
                out.add(e.getKey() + ": " + why);
            }
        }
        return out;
    }

    /** How many nodes' policy label differs from the expected one (missing and unexpected labels count too). */
    static int wrongLabels(Map<String, String> actual, Map<String, String> expected) {
        int wrong = 0;
        for (Map.Entry<String, String> e : expected.entrySet()) {
            if (!e.getValue().equals(actual.get(e.getKey()))) {
                wrong++;
            }
        }
        for (String node : actual.keySet()) {
            if (!expected.containsKey(node)) {
                wrong++;
            }
        }
        return wrong;
    }
}
