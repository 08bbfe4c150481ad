package io.podnuma.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.assign.NodeSelector;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** Which policies an event on a secondary object concerns. */
final class PolicyMappers {

    private PolicyMappers() {}

    /** A node concerns the policy its label names and every policy whose selector selects it. */
    static SecondaryToPrimaryMapper<Node> nodes(Supplier<Stream<NumaResourcePolicy>> policies) {
        return node -> {
            NodeCandidate candidate = NodeCandidate.of(node);
            Set<ResourceID> out = new HashSet<>();
            candidate.labelledPolicy().ifPresent(p -> out.add(new ResourceID(p)));
            policies.get().filter(p -> selects(p, candidate)).forEach(p -> out.add(ResourceID.fromResource(p)));
            return out;
        };
    }

    /**
     * A NumaNodeState concerns the policy it reports and the one its node is labelled with (they differ while a node
     * moves between policies).
     */
    static SecondaryToPrimaryMapper<NumaNodeState> nodeStates(Function<String, Optional<Node>> node) {
        return state -> {
            Set<ResourceID> out = new HashSet<>();
            if (state.getStatus() != null && state.getStatus().policy() != null) {
                out.add(new ResourceID(state.getStatus().policy()));
            }
            node.apply(state.getMetadata().getName())
                    .flatMap(n -> NodeCandidate.of(n).labelledPolicy())
                    .ifPresent(p -> out.add(new ResourceID(p)));
            return out;
        };
    }

    /** An agent object concerns the policy its {@code podnuma.io/policy} label names. */
    static <T extends HasMetadata> SecondaryToPrimaryMapper<T> labelled() {
        return o -> {
            Map<String, String> labels = o.getMetadata().getLabels();
            String policy = labels == null ? null : labels.get(NodeCandidate.POLICY_LABEL);
            return policy == null ? Set.of() : Set.of(new ResourceID(policy));
        };
    }

    /** Only label changes move a node between policies; heartbeats and status updates do not. */
    static boolean labelsChanged(Node now, Node before) {
        return !Objects.equals(
                now.getMetadata().getLabels(), before.getMetadata().getLabels());
    }

    private static boolean selects(NumaResourcePolicy p, NodeCandidate node) {
        try {
            return p.getSpec() != null
                    && NodeSelector.of(p.getSpec().nodeSelector()).selects(node.labels());
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }
}
