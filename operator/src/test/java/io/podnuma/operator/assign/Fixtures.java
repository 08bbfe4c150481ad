package io.podnuma.operator.assign;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Short builders for the assignment tests. */
final class Fixtures {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private Fixtures() {}

    /** A policy created {@code minute} minutes after T0. */
    static PolicyCandidate policy(String name, int priority, int minute, LabelSelector selector) {
        return new PolicyCandidate(
                name, "uid-" + name, priority, T0.plusSeconds(60L * minute), false, NodeSelector.of(selector));
    }

    static PolicyCandidate deleting(PolicyCandidate p) {
        return new PolicyCandidate(p.name(), p.uid(), p.priority(), p.createdAt(), true, p.selector());
    }

    static LabelSelector labels(String... keyValues) {
        return new LabelSelector(null, pairs(keyValues));
    }

    static final LabelSelector ALL = new LabelSelector();

    /** A node with {@code key=value} labels. */
    static NodeCandidate node(String name, String... keyValues) {
        return new NodeCandidate(name, pairs(keyValues));
    }

    /** The node as it is after its label change has been written. */
    static NodeCandidate labelled(NodeCandidate node, String policy) {
        Map<String, String> labels = new HashMap<>(node.labels());
        if (policy == null) {
            labels.remove(NodeCandidate.POLICY_LABEL);
        } else {
            labels.put(NodeCandidate.POLICY_LABEL, policy);
        }
        return new NodeCandidate(node.name(), labels);
    }

    private static Map<String, String> pairs(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (String kv : keyValues) {
            int eq = kv.indexOf('=');
            map.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return map;
    }
}
