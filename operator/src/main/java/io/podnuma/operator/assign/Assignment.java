package io.podnuma.operator.assign;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Who governs which node, seen from both sides, and the label writes that make the nodes say so.
 *
 * @param winners node → the policy that governs it, for every node; empty when no policy does
 * @param policies policy → its governed and lost nodes, for every policy given (one being deleted governs nothing)
 * @param labelChanges the nodes whose {@code podnuma.io/policy} label differs from their winner, sorted by node
 */
public record Assignment(
        SortedMap<String, Optional<String>> winners,
        SortedMap<String, PolicyNodes> policies,
        List<LabelChange> labelChanges) {

    public Assignment {
        winners = Collections.unmodifiableSortedMap(new TreeMap<>(winners));
        policies = Collections.unmodifiableSortedMap(new TreeMap<>(policies));
        labelChanges = List.copyOf(labelChanges);
    }

    /** The policy governing the node; empty when none does or the node is unknown. */
    public Optional<String> winnerOf(String node) {
        return winners.getOrDefault(node, Optional.empty());
    }

    /** The policy's nodes; none for a policy that was not given. */
    public PolicyNodes of(String policy) {
        return policies.getOrDefault(policy, PolicyNodes.NONE);
    }
}
