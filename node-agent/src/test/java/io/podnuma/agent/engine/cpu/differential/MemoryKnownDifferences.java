package io.podnuma.agent.engine.cpu.differential;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The allow-list of the memory manager differential test: every way podnuma's Static memory policy
 * deliberately answers differently from the kubelet v1.37.2 (the differences the memory section of the
 * README lists), by name and reason, each checked on the exact shape it explains. Anything else fails
 * {@link MemoryManagerDifferentialIT}.
 */
final class MemoryKnownDifferences {

    /** Whether an entry explains one differing field of one operation. */
    interface Explainer {
        boolean explains(
                MemoryCase.Memory input, int op, String field, MemoryAnswer.Result java, MemoryAnswer.Result kubelet);
    }

    /**
     * One intended difference.
     *
     * @param stopsComparison the two sides hold different books from this operation on, so the rest of the
     *     case is not compared
     */
    record Entry(String name, String reason, boolean stopsComparison, Explainer explainer) {}

    static final Entry EMPTY_HINT_LIST_WHEN_NOTHING_FITS = new Entry(
            "empty-hint-list-when-nothing-fits",
            "when no NUMA node combination fits the request the kubelet returns no entry for the requested"
                    + " resources, which its topology manager reads as \"no preference\" and admits; podnuma"
                    + " returns an empty list per resource, which the merge reads as \"cannot satisfy\"",
            false,
            (in, op, field, java, kubelet) -> {
                if (!"hints".equals(field)) {
                    return false;
                }
                Map<String, List<MergeCase.Hint>> j = java.ops().get(op).hints();
                Map<String, List<MergeCase.Hint>> k = kubelet.ops().get(op).hints();
                return j != null
                        && k != null
                        && k.isEmpty()
                        && j.keySet().equals(in.ops().get(op).request().keySet())
                        && j.values().stream().allMatch(List::isEmpty);
            });

    static final Entry SINGLE_NODE_ON_GROUPED_NODE_REFUSED = new Entry(
            "single-node-allocation-on-grouped-node-refused",
            "given a single-node affinity on a node that already serves a multi-node group, the kubelet"
                    + " allocates that node alone when it has the free memory (its group check skips single-node"
                    + " masks at allocation, though its hints exclude them) and moves it out of the group;"
                    + " podnuma refuses, keeping single-node and group memory apart. Both extend to the group"
                    + " when the node alone lacks free memory; after a removal the two books may spread a"
                    + " group's reserved memory differently over its nodes (release-returns-exact-charges), so"
                    + " one side may extend where the other refuses or allocates the single node",
            true,
            (in, op, field, java, kubelet) -> {
                MemoryCase.Op o = in.ops().get(op);
                if (!"add".equals(o.op()) || o.mask() == null || o.mask().size() != 1) {
                    return false;
                }
                int node = o.mask().getFirst();
                List<MemoryAnswer.NodeRow> before =
                        op == 0 ? kubelet.table() : kubelet.ops().get(op - 1).table();
                List<Integer> group = before.stream()
                        .filter(r -> r.node() == node)
                        .map(MemoryAnswer.NodeRow::cells)
                        .findFirst()
                        .orElse(List.of());
                if (group.size() < 2) {
                    return false;
                }
                MemoryAnswer.OpResult j = java.ops().get(op);
                MemoryAnswer.OpResult k = kubelet.ops().get(op);
                boolean removedBefore = in.ops().subList(0, op).stream().anyMatch(x -> "remove".equals(x.op()));
                if (k.error() == null && onlyOn(k, List.of(node))) {
                    return j.error() != null || (removedBefore && onlyOn(j, group));
                }
                return removedBefore && j.error() != null && k.error() == null && onlyOn(k, group);
            });

    static final Entry RELEASE_RETURNS_EXACT_CHARGES = new Entry(
            "release-returns-exact-charges",
            "on removal the kubelet gives a block's size back walking the group's nodes in id order, taking"
                    + " from whichever node has reserved memory first, so per-node reserved/free inside a group"
                    + " drift from what each block charged; podnuma gives back exactly the per-node charge. Group"
                    + " sums (all that hints and admission read) stay equal",
            false,
            (in, op, field, java, kubelet) -> "table".equals(field)
                    && in.ops().subList(0, op + 1).stream().anyMatch(o -> "remove".equals(o.op()))
                    && sameUpToPlacementInGroups(
                            java.ops().get(op).table(), kubelet.ops().get(op).table()));

    static final List<Entry> ALL = List.of(
            EMPTY_HINT_LIST_WHEN_NOTHING_FITS, SINGLE_NODE_ON_GROUPED_NODE_REFUSED, RELEASE_RETURNS_EXACT_CHARGES);

    private MemoryKnownDifferences() {}

    static Optional<Entry> explaining(
            MemoryCase.Memory input, int op, String field, MemoryAnswer.Result java, MemoryAnswer.Result kubelet) {
        return ALL.stream()
                .filter(e -> e.explainer().explains(input, op, field, java, kubelet))
                .findFirst();
    }

    /**
     * Whether two tables differ only in how reserved memory is spread over the nodes of multi-node groups:
     * same nodes, assignments, groups, totals and allocatable; every differing node in a group of two or
     * more; per group and resource the same reserved sum.
     */
    static boolean sameUpToPlacementInGroups(List<MemoryAnswer.NodeRow> java, List<MemoryAnswer.NodeRow> kubelet) {
        if (java.size() != kubelet.size()) {
            return false;
        }
        Map<List<Integer>, Map<String, long[]>> groupSums = new HashMap<>();
        for (int i = 0; i < java.size(); i++) {
            MemoryAnswer.NodeRow j = java.get(i);
            MemoryAnswer.NodeRow k = kubelet.get(i);
            if (j.node() != k.node()
                    || j.assignments() != k.assignments()
                    || !j.cells().equals(k.cells())
                    || !j.memory().keySet().equals(k.memory().keySet())) {
                return false;
            }
            for (Map.Entry<String, MemoryAnswer.Table> e : j.memory().entrySet()) {
                MemoryAnswer.Table jt = e.getValue();
                MemoryAnswer.Table kt = k.memory().get(e.getKey());
                if (jt.total() != kt.total()
                        || jt.systemReserved() != kt.systemReserved()
                        || jt.allocatable() != kt.allocatable()) {
                    return false;
                }
                if (jt.reserved() != kt.reserved() && j.cells().size() < 2) {
                    return false;
                }
                long[] sums = groupSums
                        .computeIfAbsent(j.cells(), c -> new HashMap<>())
                        .computeIfAbsent(e.getKey(), r -> new long[2]);
                sums[0] += jt.reserved();
                sums[1] += kt.reserved();
            }
        }
        return groupSums.values().stream().flatMap(m -> m.values().stream()).allMatch(s -> s[0] == s[1]);
    }

    /** Whether the operation succeeded with every block on exactly {@code mask}. */
    private static boolean onlyOn(MemoryAnswer.OpResult r, List<Integer> mask) {
        return r.blocks() != null
                && r.blocks().values().stream().allMatch(b -> b.mask().equals(mask));
    }
}
