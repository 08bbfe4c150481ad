package io.podnuma.operator.assign;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** What node assignment needs to know of one node: its name and labels (the policy label among them). */
public record NodeCandidate(String name, Map<String, String> labels) {

    /** The label that tells a node's agent which policy governs it; the DaemonSet's nodeSelector matches on it. */
    public static final String POLICY_LABEL = "podnuma.io/policy";

    public NodeCandidate {
        Objects.requireNonNull(name, "name");
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    public static NodeCandidate of(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        return new NodeCandidate(node.getMetadata().getName(), labels == null ? Map.of() : labels);
    }

    /** The policy the node is labelled with now. */
    public Optional<String> labelledPolicy() {
        return Optional.ofNullable(labels.get(POLICY_LABEL));
    }
}
