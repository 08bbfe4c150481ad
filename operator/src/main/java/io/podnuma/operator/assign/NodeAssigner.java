package io.podnuma.operator.assign;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Node assignment = f(policies, nodes). A node goes to the first policy in {@link PolicyCandidate#PRECEDENCE} that
 * selects it; a policy being deleted selects nothing, so its nodes pass to the next one or to none. Pure and total
 * over its input order: the same sets of policies and nodes give the same assignment however they are listed.
 */
public final class NodeAssigner {

    private NodeAssigner() {}

    /**
     * @throws IllegalArgumentException when two policies or two nodes share a name (the API server never lists such,
     *     and a tie between them could not be broken)
     */
    public static Assignment assign(Collection<PolicyCandidate> policies, Collection<NodeCandidate> nodes) {
        List<PolicyCandidate> ranked = new ArrayList<>(policies);
        ranked.sort(PolicyCandidate.PRECEDENCE);
        requireUnique("policy", ranked.stream().map(PolicyCandidate::name).toList());
        requireUnique("node", nodes.stream().map(NodeCandidate::name).toList());

        Map<String, Optional<String>> winners = new TreeMap<>();
        Map<String, List<String>> governed = new TreeMap<>();
        Map<String, Map<String, String>> lost = new TreeMap<>();
        ranked.forEach(p -> {
            governed.put(p.name(), new ArrayList<>());
            lost.put(p.name(), new TreeMap<>());
        });
        List<LabelChange> changes = new ArrayList<>();
        for (NodeCandidate node : nodes) {
            Optional<String> winner = Optional.empty();
            for (PolicyCandidate policy : ranked) {
                if (!policy.claims(node)) {
                    continue;
                }
                if (winner.isEmpty()) {
                    winner = Optional.of(policy.name());
                    governed.get(policy.name()).add(node.name());
                } else {
                    lost.get(policy.name()).put(node.name(), winner.get());
                }
            }
            winners.put(node.name(), winner);
            LabelChange.between(node.name(), node.labelledPolicy(), winner).ifPresent(changes::add);
        }
        Map<String, PolicyNodes> byPolicy = new TreeMap<>();
        governed.forEach((name, won) ->
                byPolicy.put(name, new PolicyNodes(won.stream().sorted().toList(), new TreeMap<>(lost.get(name)))));
        changes.sort(Comparator.comparing(LabelChange::node));
        return new Assignment(new TreeMap<>(winners), new TreeMap<>(byPolicy), changes);
    }

    private static void requireUnique(String what, List<String> names) {
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw new IllegalArgumentException("two " + what + " objects are both named " + name);
            }
        }
    }
}
