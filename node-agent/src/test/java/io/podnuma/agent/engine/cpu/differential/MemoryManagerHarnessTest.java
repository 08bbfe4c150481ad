package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The memory manager differential harness without Go: case generation, the Java side's answers in the
 * oracle's terms, the comparison and the allow-list.
 */
class MemoryManagerHarnessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long GI = MemoryCaseGenerator.GI;

    /** Two 4Gi nodes, 512Mi reserved on node 0. */
    private static MemoryCase.Memory twoNodes(List<MemoryCase.Op> ops) {
        return new MemoryCase.Memory(
                List.of(new MemoryCase.Node(0, 4 * GI, Map.of()), new MemoryCase.Node(1, 4 * GI, Map.of())),
                Map.of(0, Map.of("memory", GI / 2)),
                ops);
    }

    private static MemoryCase.Op add(String pod, long bytes, List<Integer> mask, boolean hints) {
        return MemoryCase.Op.add(pod, "c", Map.of("memory", bytes), hints, mask, true);
    }

    @Test
    void sameSeedSameCaseAndMachinesTheKubeletAccepts() throws Exception {
        MemoryCaseGenerator generator = new MemoryCaseGenerator();
        for (long seed = 1; seed <= 300; seed++) {
            MemoryCase c = generator.generate(seed);
            assertThat(JSON.writeValueAsString(generator.generate(seed))).isEqualTo(JSON.writeValueAsString(c));
            List<MemoryCase.Node> nodes = c.memory().nodes();
            assertThat(nodes).hasSizeBetween(1, 8);
            assertThat(nodes.stream().map(MemoryCase.Node::id).toList())
                    .isSorted()
                    .doesNotHaveDuplicates();
            for (MemoryCase.Node node : nodes) {
                // The kubelet reads every requested size on every node: the sizes must be the same everywhere.
                assertThat(node.hugepages().keySet())
                        .isEqualTo(nodes.getFirst().hugepages().keySet());
                long huge = node.hugepages().entrySet().stream()
                        .mapToLong(e -> e.getKey() * 1024 * e.getValue())
                        .sum();
                Map<String, Long> reserved = c.memory().reserved().getOrDefault(node.id(), Map.of());
                // Its books are unsigned: a reservation above what a node has would wrap around.
                assertThat(reserved.getOrDefault("memory", 0L)).isLessThanOrEqualTo(node.memory() - huge);
            }
            assertThat(c.memory().ops()).hasSizeBetween(4, 16);
            for (MemoryCase.Op op : c.memory().ops()) {
                if ("add".equals(op.op())) {
                    assertThat(op.request()).containsKey("memory");
                    assertThat(op.request().keySet())
                            .allMatch(r -> r.equals("memory")
                                    || nodes.getFirst().hugepages().keySet().stream()
                                            .anyMatch(kib -> MemoryCaseGenerator.hugepagesName(kib)
                                                    .equals(r)));
                }
            }
        }
    }

    @Test
    void oracleInputKeepsNullMasksAndPreferredFalse() throws Exception {
        String line = JSON.writeValueAsString(new MemoryCase(
                "x",
                twoNodes(List.of(
                        MemoryCase.Op.add("p", "c", Map.of("memory", GI), false, null, false),
                        MemoryCase.Op.remove("p", "c")))));
        assertThat(line)
                .contains("{\"op\":\"add\",\"pod\":\"p\",\"container\":\"c\",\"request\":{\"memory\":1073741824},"
                        + "\"mask\":null,\"preferred\":false}")
                .contains("{\"op\":\"remove\",\"pod\":\"p\",\"container\":\"c\",\"mask\":null,\"preferred\":false}")
                .contains("\"reserved\":{\"0\":{\"memory\":536870912}}");
    }

    @Test
    void javaSideAnswersInTheOraclesTerms() {
        MemoryAnswer.Result r = MemoryManagerDifferentialIT.javaAnswer(twoNodes(List.of(
                add("a", 5 * GI, null, true), add("b", 1 * GI, List.of(0, 1), true), add("c", 9 * GI, null, true))));
        assertThat(r.createError()).isNull();
        assertThat(r.table().getFirst().memory().get("memory"))
                .isEqualTo(new MemoryAnswer.Table(4 * GI, GI / 2, 7 * GI / 2, 0, 7 * GI / 2));
        MemoryAnswer.OpResult first = r.ops().getFirst();
        assertThat(first.hints()).isEqualTo(Map.of("memory", List.of(new MergeCase.Hint(List.of(0, 1), true))));
        assertThat(first.blocks()).isEqualTo(Map.of("memory", new MemoryAnswer.Block(List.of(0, 1), 5 * GI)));
        // Charged node by node in id order: node 0 fills first.
        assertThat(first.table().get(0).memory().get("memory").reserved()).isEqualTo(7 * GI / 2);
        assertThat(first.table().get(1).memory().get("memory").reserved()).isEqualTo(3 * GI / 2);
        assertThat(first.table().get(1).cells()).containsExactly(0, 1);
        // The second fits only the group (a single node is out: both serve the group); not preferred.
        assertThat(r.ops().get(1).hints())
                .isEqualTo(Map.of("memory", List.of(new MergeCase.Hint(List.of(0, 1), false))));
        // Nothing fits: podnuma's empty list, and an error.
        assertThat(r.ops().get(2).hints()).isEqualTo(Map.of("memory", List.of()));
        assertThat(r.ops().get(2).error()).isNotNull();
        assertThat(r.ops().get(2).blocks()).isNull();
        // No memory reserved anywhere: refused like the kubelet.
        MemoryCase.Memory unreserved =
                new MemoryCase.Memory(List.of(new MemoryCase.Node(0, 4 * GI, Map.of())), Map.of(), List.of());
        assertThat(MemoryManagerDifferentialIT.javaAnswer(unreserved).createError())
                .contains("reservedMemory");
    }

    @Test
    void everyFieldCountsAsADifferenceButErrorWordingDoesNot() {
        MemoryAnswer.OpResult base = MemoryManagerDifferentialIT.javaAnswer(
                        twoNodes(List.of(add("a", GI, List.of(1), true))))
                .ops()
                .getFirst();
        assertThat(MemoryComparison.differences(0, base, base)).isEmpty();
        assertThat(MemoryComparison.differences(
                        0, base, new MemoryAnswer.OpResult(Map.of(), base.blocks(), null, base.table())))
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("hints");
        assertThat(MemoryComparison.differences(
                        0,
                        base,
                        new MemoryAnswer.OpResult(
                                base.hints(),
                                Map.of("memory", new MemoryAnswer.Block(List.of(0), GI)),
                                null,
                                base.table())))
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("blocks");
        MemoryAnswer.OpResult failed = new MemoryAnswer.OpResult(null, null, "one wording", base.table());
        assertThat(MemoryComparison.differences(
                        0, failed, new MemoryAnswer.OpResult(null, null, "another", base.table())))
                .isEmpty();
        assertThat(MemoryComparison.differences(
                        0, base, new MemoryAnswer.OpResult(base.hints(), base.blocks(), "no", base.table())))
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("error");
        assertThat(MemoryComparison.differences(
                        0,
                        base,
                        new MemoryAnswer.OpResult(base.hints(), base.blocks(), null, shift(base.table(), 1, 1))))
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("table");
    }

    @Test
    void emptyHintListEntryExplainsOnlyAMissingEntryAgainstEmptyLists() {
        MemoryCase.Memory in = twoNodes(List.of(add("a", 9 * GI, null, true)));
        MemoryAnswer.Result java = MemoryManagerDifferentialIT.javaAnswer(in);
        MemoryAnswer.OpResult j = java.ops().getFirst();
        MemoryAnswer.Result kubelet = withOp(java, 0, new MemoryAnswer.OpResult(Map.of(), null, "x", j.table()));
        MemoryComparison.Verdict verdict = MemoryComparison.judge(in, java, kubelet);
        assertThat(verdict.unexplained()).isEmpty();
        assertThat(verdict.allowed()).containsExactly(MemoryKnownDifferences.EMPTY_HINT_LIST_WHEN_NOTHING_FITS.name());
        // Where something fits the same missing entry is a disagreement.
        MemoryCase.Memory fits = twoNodes(List.of(add("a", GI, null, true)));
        MemoryAnswer.Result javaFits = MemoryManagerDifferentialIT.javaAnswer(fits);
        MemoryAnswer.OpResult f = javaFits.ops().getFirst();
        assertThat(MemoryComparison.judge(
                                fits,
                                javaFits,
                                withOp(javaFits, 0, new MemoryAnswer.OpResult(Map.of(), f.blocks(), null, f.table())))
                        .unexplained())
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("hints");
    }

    @Test
    void releaseEntryExplainsOnlyPlacementWithinAGroupAfterARemoval() {
        // a spans both nodes (3.5Gi + 1.5Gi), b takes 1Gi on node 1; removing b the kubelet gives the
        // 1Gi back to node 0 first, podnuma to node 1 where b charged it.
        MemoryCase.Memory in = twoNodes(List.of(
                add("a", 5 * GI, null, false), add("b", GI, List.of(0, 1), false), MemoryCase.Op.remove("b", "c")));
        MemoryAnswer.Result java = MemoryManagerDifferentialIT.javaAnswer(in);
        List<MemoryAnswer.NodeRow> after = java.ops().get(2).table();
        assertThat(after.get(0).memory().get("memory").reserved()).isEqualTo(7 * GI / 2);
        assertThat(after.get(1).memory().get("memory").reserved()).isEqualTo(3 * GI / 2);
        List<MemoryAnswer.NodeRow> kubeletTable = shift(shift(after, 0, -GI), 1, GI);
        MemoryAnswer.Result kubelet = withOp(java, 2, new MemoryAnswer.OpResult(null, null, null, kubeletTable));
        MemoryComparison.Verdict verdict = MemoryComparison.judge(in, java, kubelet);
        assertThat(verdict.unexplained()).isEmpty();
        assertThat(verdict.allowed()).containsExactly(MemoryKnownDifferences.RELEASE_RETURNS_EXACT_CHARGES.name());
        // A different group sum is not placement.
        assertThat(MemoryComparison.judge(
                                in,
                                java,
                                withOp(java, 2, new MemoryAnswer.OpResult(null, null, null, shift(after, 0, -GI))))
                        .unexplained())
                .extracting(MemoryComparison.Difference::field)
                .containsExactly("table");
        // Nor is the same drift before any removal.
        MemoryAnswer.OpResult second = java.ops().get(1);
        assertThat(MemoryComparison.judge(
                                in,
                                java,
                                withOp(
                                        java,
                                        1,
                                        new MemoryAnswer.OpResult(
                                                second.hints(),
                                                second.blocks(),
                                                null,
                                                shift(shift(second.table(), 0, -GI), 1, GI))))
                        .unexplained())
                .isNotEmpty();
    }

    @Test
    void singleNodeEntryExplainsTheKubeletsAllocationOnAGroupedNodeAndEndsTheComparison() {
        // a spans both nodes; b asks for node 1 alone, which has the free memory but serves the group.
        MemoryCase.Memory in = twoNodes(
                List.of(add("a", 5 * GI, null, false), add("b", GI, List.of(1), false), add("c", GI, null, true)));
        MemoryAnswer.Result java = MemoryManagerDifferentialIT.javaAnswer(in);
        assertThat(java.ops().get(1).error()).contains("group");
        MemoryAnswer.OpResult j = java.ops().get(1);
        MemoryAnswer.Result kubelet = withOp(
                java,
                1,
                new MemoryAnswer.OpResult(
                        null, Map.of("memory", new MemoryAnswer.Block(List.of(1), GI)), null, shift(j.table(), 1, GI)));
        kubelet = withOp(kubelet, 2, new MemoryAnswer.OpResult(null, null, "differs from here on", j.table()));
        MemoryComparison.Verdict verdict = MemoryComparison.judge(in, java, kubelet);
        assertThat(verdict.unexplained()).isEmpty();
        assertThat(verdict.allowed())
                .isEqualTo(Set.of(MemoryKnownDifferences.SINGLE_NODE_ON_GROUPED_NODE_REFUSED.name()));
        assertThat(verdict.comparedOps()).isEqualTo(2);
        // The same answers on a node that was not in a group are not explained.
        MemoryAnswer.Result ungrouped = withOp(kubelet, 0, new MemoryAnswer.OpResult(null, null, null, java.table()));
        assertThat(MemoryKnownDifferences.SINGLE_NODE_ON_GROUPED_NODE_REFUSED
                        .explainer()
                        .explains(in, 1, "error", java, ungrouped))
                .isFalse();
    }

    @Test
    void singleNodeEntryExplainsAnExtensionAgainstARefusalOnlyAfterARemoval() {
        // After b's removal podnuma's node 1 has 2.5Gi free and refuses d there (it serves a's group); the
        // kubelet's release drift left node 1 only 1.5Gi, so it extends d to the group.
        MemoryCase.Op d = add("d", 2 * GI, List.of(1), false);
        MemoryCase.Memory in = twoNodes(List.of(
                add("a", 5 * GI, null, false), add("b", GI, List.of(0, 1), false), MemoryCase.Op.remove("b", "c"), d));
        MemoryAnswer.Result java = MemoryManagerDifferentialIT.javaAnswer(in);
        assertThat(java.ops().get(3).error()).contains("group");
        List<MemoryAnswer.NodeRow> drifted = shift(shift(java.ops().get(2).table(), 0, -GI), 1, GI);
        MemoryAnswer.Result kubelet = withOp(java, 2, new MemoryAnswer.OpResult(null, null, null, drifted));
        kubelet = withOp(
                kubelet,
                3,
                new MemoryAnswer.OpResult(
                        null, Map.of("memory", new MemoryAnswer.Block(List.of(0, 1), 2 * GI)), null, drifted));
        MemoryComparison.Verdict verdict = MemoryComparison.judge(in, java, kubelet);
        assertThat(verdict.unexplained()).isEmpty();
        assertThat(verdict.allowed())
                .containsExactlyInAnyOrder(
                        MemoryKnownDifferences.RELEASE_RETURNS_EXACT_CHARGES.name(),
                        MemoryKnownDifferences.SINGLE_NODE_ON_GROUPED_NODE_REFUSED.name());
        // Without a removal before it the books cannot have drifted: not explained.
        MemoryCase.Memory noRemoval =
                twoNodes(List.of(in.ops().get(0), in.ops().get(1), add("e", GI, List.of(0), false), d));
        assertThat(MemoryKnownDifferences.SINGLE_NODE_ON_GROUPED_NODE_REFUSED
                        .explainer()
                        .explains(noRemoval, 3, "blocks", java, kubelet))
                .isFalse();
    }

    private static MemoryAnswer.Result withOp(MemoryAnswer.Result r, int index, MemoryAnswer.OpResult op) {
        List<MemoryAnswer.OpResult> ops = new ArrayList<>(r.ops());
        ops.set(index, op);
        return new MemoryAnswer.Result(r.createError(), r.table(), ops);
    }

    /** The table with {@code bytes} more memory reserved (and less free) on the row at {@code index}. */
    private static List<MemoryAnswer.NodeRow> shift(List<MemoryAnswer.NodeRow> table, int index, long bytes) {
        List<MemoryAnswer.NodeRow> rows = new ArrayList<>(table);
        MemoryAnswer.NodeRow row = rows.get(index);
        Map<String, MemoryAnswer.Table> memory = new TreeMap<>(row.memory());
        MemoryAnswer.Table t = memory.get("memory");
        memory.put(
                "memory",
                new MemoryAnswer.Table(
                        t.total(), t.systemReserved(), t.allocatable(), t.reserved() + bytes, t.free() - bytes));
        rows.set(index, new MemoryAnswer.NodeRow(row.node(), row.assignments(), row.cells(), memory));
        return rows;
    }
}
