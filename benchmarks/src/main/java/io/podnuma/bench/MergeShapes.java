package io.podnuma.bench;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.LongPredicate;

/**
 * The merge inputs: the shapes of the performance budget (8 NUMA nodes with 4 providers offering every mask, 16
 * nodes with 3 providers, a 34-node machine) and two small ones where an exhaustive merge is feasible.
 */
public final class MergeShapes {

    private static final long GPU_NODES = NumaMask.of(3, 12).bits();

    private MergeShapes() {}

    public static List<MergeShape> all() {
        return List.of(
                new MergeShape(
                        "merge/4numa-3x15-own",
                        "4 NUMA, 3 providers x all 15 masks, each prefers only its own node",
                        4,
                        providers(4, 3, p -> w -> true, p -> w -> w == 1L << p)),
                new MergeShape(
                        "merge/8numa-2x255-own",
                        "8 NUMA, 2 providers x all 255 masks, each prefers only its own node",
                        8,
                        providers(8, 2, p -> w -> true, p -> w -> w == 1L << p)),
                new MergeShape(
                        "merge/8numa-4x255-singles",
                        "8 NUMA, 4 providers x all 255 masks, single nodes preferred",
                        8,
                        providers(8, 4, p -> w -> true, p -> w -> Long.bitCount(w) == 1)),
                new MergeShape(
                        "merge/8numa-4x255-own",
                        "8 NUMA, 4 providers x all 255 masks, each prefers only its own node",
                        8,
                        providers(8, 4, p -> w -> true, p -> w -> w == 1L << p)),
                new MergeShape(
                        "merge/8numa-4x-growing",
                        "8 NUMA, 4 providers needing 1, 2, 3, 4 nodes (every fitting mask, narrowest preferred)",
                        8,
                        providers(8, 4, p -> w -> Long.bitCount(w) >= p + 1, p -> w -> Long.bitCount(w) == p + 1)),
                new MergeShape(
                        "merge/16numa-3x-all",
                        "16 NUMA, cpu (2+ nodes) + memory (any) + gpu (node 3 or 12): every fitting mask, 180k hints",
                        16,
                        sixteen(16)),
                new MergeShape(
                        "merge/16numa-3x-upto3",
                        "16 NUMA, same providers limited to masks of 1-3 nodes",
                        16,
                        sixteen(3)),
                new MergeShape(
                        "merge/34numa-3x-upto3",
                        "34 NUMA, 3 providers x 6579 masks of 1-3 nodes (singles, pairs, singles preferred)",
                        34,
                        thirtyFour()));
    }

    public static MergeShape byId(String id) {
        return all().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException("no merge shape \"" + id + "\"; known: "
                        + all().stream().map(MergeShape::id).toList()));
    }

    /** What provider {@code p} offers or prefers, as a test of the mask word. */
    private interface PerProvider {
        LongPredicate of(int provider);
    }

    private static List<List<TopologyHint>> providers(int nodes, int count, PerProvider offers, PerProvider prefers) {
        List<List<TopologyHint>> lists = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            lists.add(hints(NumaMask.firstNodes(nodes), nodes, offers.of(p), prefers.of(p)));
        }
        return lists;
    }

    private static List<List<TopologyHint>> sixteen(int maxWidth) {
        NumaMask nodes = NumaMask.firstNodes(16);
        List<TopologyHint> cpu = hints(nodes, maxWidth, w -> Long.bitCount(w) >= 2, w -> Long.bitCount(w) == 2);
        List<TopologyHint> memory = hints(nodes, maxWidth, w -> true, w -> Long.bitCount(w) == 1);
        List<TopologyHint> gpu = hints(nodes, maxWidth, w -> (w & GPU_NODES) != 0, w -> Long.bitCount(w) == 1);
        return List.of(cpu, memory, gpu);
    }

    private static List<List<TopologyHint>> thirtyFour() {
        NumaMask nodes = NumaMask.firstNodes(34);
        List<TopologyHint> singles = hints(nodes, 3, w -> true, w -> Long.bitCount(w) == 1);
        List<TopologyHint> pairs = hints(nodes, 3, w -> true, w -> Long.bitCount(w) == 2);
        return List.of(singles, pairs, singles);
    }

    /**
     * Every subset of {@code nodes} with at most {@code maxWidth} nodes that {@code offers} accepts, by size and
     * then lexicographically (the order the kubelet's providers list them in).
     */
    static List<TopologyHint> hints(NumaMask nodes, int maxWidth, LongPredicate offers, LongPredicate prefers) {
        List<TopologyHint> out = new ArrayList<>();
        int[] ids = nodes.toArray();
        for (int size = 1; size <= Math.min(maxWidth, ids.length); size++) {
            addOfSize(ids, size, 0, 0L, offers, prefers, out);
        }
        return out;
    }

    private static void addOfSize(
            int[] ids,
            int left,
            int start,
            long word,
            LongPredicate offers,
            LongPredicate prefers,
            List<TopologyHint> out) {
        if (left == 0) {
            if (offers.test(word)) {
                out.add(new TopologyHint(NumaMask.ofBits(word), prefers.test(word)));
            }
            return;
        }
        for (int i = start; i <= ids.length - left; i++) {
            addOfSize(ids, left - 1, i + 1, word | 1L << ids[i], offers, prefers, out);
        }
    }
}
