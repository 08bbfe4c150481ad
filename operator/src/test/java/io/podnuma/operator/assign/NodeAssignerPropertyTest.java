package io.podnuma.operator.assign;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link NodeAssigner} over many generated clusters: small label and value alphabets and few distinct
 * priorities and ages so that overlaps and ties are common. Each run draws a new seed and prints it;
 * {@code -Dpodnuma.seed=N} replays a run, {@code -Dpodnuma.cases=N} generates more clusters.
 */
class NodeAssignerPropertyTest {

    private static final int CASES = Integer.getInteger("podnuma.cases", 2_000);
    private static final String[] KEYS = {"zone", "gpu", "tier", NodeCandidate.POLICY_LABEL};
    private static final String[] VALUES = {"a", "b", "c"};
    private static final String[] OPERATORS = {"In", "NotIn", "Exists", "DoesNotExist"};

    @Test
    void everyGeneratedClusterKeepsTheAssignmentRules() {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println("NodeAssignerPropertyTest seed=" + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            List<PolicyCandidate> policies = policies(random);
            List<NodeCandidate> nodes = nodes(random, policies);
            Assignment a = NodeAssigner.assign(policies, nodes);
            String where = "seed " + seed + " case " + i + ": " + policies + " / " + nodes;

            Map<String, PolicyCandidate> byName = new HashMap<>();
            policies.forEach(p -> byName.put(p.name(), p));
            assertThat(a.winners().keySet()).as(where).hasSize(nodes.size());
            for (NodeCandidate node : nodes) {
                Optional<String> winner = a.winnerOf(node.name());
                long governing = a.policies().values().stream()
                        .filter(s -> s.governed().contains(node.name()))
                        .count();
                assertThat(governing)
                        .as(where + " node " + node.name() + " has at most one winner")
                        .isEqualTo(winner.isPresent() ? 1 : 0);
                List<PolicyCandidate> selecting = policies.stream()
                        .filter(p -> !p.deleting() && p.selector().selects(node.labels()))
                        .toList();
                if (winner.isEmpty()) {
                    assertThat(selecting)
                            .as(where + " a node without winner is selected by no live policy")
                            .isEmpty();
                    continue;
                }
                PolicyCandidate w = byName.get(winner.get());
                assertThat(w.deleting()).as(where).isFalse();
                assertThat(w.selector().selects(node.labels()))
                        .as(where + " the winner selects the node")
                        .isTrue();
                for (PolicyCandidate other : selecting) {
                    assertThat(PolicyCandidate.PRECEDENCE.compare(w, other))
                            .as(where + " no live selecting policy beats the winner")
                            .isLessThanOrEqualTo(0);
                    if (other != w) {
                        assertThat(a.of(other.name()).lost()).as(where).containsEntry(node.name(), w.name());
                    }
                }
                boolean labelRight = node.labelledPolicy().equals(winner);
                assertThat(a.labelChanges().stream().anyMatch(c -> c.node().equals(node.name())))
                        .as(where + " relabel only when the winner differs from the label")
                        .isEqualTo(!labelRight);
            }
            for (PolicyCandidate p : policies) {
                PolicyNodes side = a.of(p.name());
                assertThat(side.governed()).as(where).isSorted();
                if (p.deleting()) {
                    assertThat(side)
                            .as(where + " a policy being deleted governs nothing")
                            .isEqualTo(PolicyNodes.NONE);
                }
            }

            List<PolicyCandidate> shuffledPolicies = new ArrayList<>(policies);
            List<NodeCandidate> shuffledNodes = new ArrayList<>(nodes);
            Collections.shuffle(shuffledPolicies, random);
            Collections.shuffle(shuffledNodes, random);
            assertThat(NodeAssigner.assign(shuffledPolicies, shuffledNodes))
                    .as(where + " the result does not depend on the input order")
                    .isEqualTo(a);
        }
    }

    private static List<PolicyCandidate> policies(Random random) {
        int count = random.nextInt(6);
        List<PolicyCandidate> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new PolicyCandidate(
                    "p" + i,
                    "uid-" + i,
                    random.nextInt(3),
                    Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextInt(3)),
                    random.nextInt(5) == 0,
                    NodeSelector.of(selector(random))));
        }
        return out;
    }

    private static LabelSelector selector(Random random) {
        if (random.nextInt(5) == 0) {
            return random.nextBoolean() ? null : new LabelSelector();
        }
        Map<String, String> labels = new HashMap<>();
        int pairs = random.nextInt(2);
        for (int i = 0; i < pairs; i++) {
            labels.put(pick(random, KEYS), pick(random, VALUES));
        }
        List<LabelSelectorRequirement> expressions = new ArrayList<>();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            String operator = pick(random, OPERATORS);
            List<String> values = null;
            if (operator.equals("In") || operator.equals("NotIn")) {
                values = new ArrayList<>();
                values.add(pick(random, VALUES));
                if (random.nextBoolean()) {
                    values.add(pick(random, VALUES));
                }
            }
            expressions.add(new LabelSelectorRequirement(pick(random, KEYS), operator, values));
        }
        return new LabelSelector(expressions, labels);
    }

    private static List<NodeCandidate> nodes(Random random, List<PolicyCandidate> policies) {
        int count = random.nextInt(10);
        List<NodeCandidate> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, String> labels = new HashMap<>();
            for (String key : List.of("zone", "gpu", "tier")) {
                if (random.nextBoolean()) {
                    labels.put(key, pick(random, VALUES));
                }
            }
            if (!policies.isEmpty() && random.nextBoolean()) {
                labels.put(
                        NodeCandidate.POLICY_LABEL,
                        policies.get(random.nextInt(policies.size())).name());
            } else if (random.nextInt(4) == 0) {
                labels.put(NodeCandidate.POLICY_LABEL, "deleted-long-ago");
            }
            out.add(new NodeCandidate("n" + i, labels));
        }
        return out;
    }

    private static String pick(Random random, String[] from) {
        return from[random.nextInt(from.length)];
    }
}
