package io.podnuma.agent.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * The compact hint form ({@link TopologyHints}) must merge to exactly what the list form merges to, and so to the
 * exhaustive (kubelet) answer: the pruned merge reads the two forms by different paths (a scan of the mask words
 * or the bitmap built with the hints, against a walk over hint objects). Seeded random loops: each test prints its
 * seed, and {@code -Dpodnuma.seed=N} replays one.
 */
class CompactHintMergeTest {

    private final HintMerger exhaustive = new ExhaustiveHintMerger();
    private final HintMerger pruned = new PrunedHintMerger();

    private static long seed(String test) {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(CompactHintMergeTest.class.getSimpleName() + "." + test + " seed=" + seed
                + " (replay with -Dpodnuma.seed=" + seed + ")");
        return seed;
    }

    private static List<List<TopologyHint>> compact(List<List<TopologyHint>> lists) {
        return lists.stream().<List<TopologyHint>>map(TopologyHints::of).toList();
    }

    /** Some lists compact, some not: a merge gets whatever each provider gave. */
    private static List<List<TopologyHint>> mixed(Random random, List<List<TopologyHint>> lists) {
        return lists.stream()
                .map(list -> random.nextBoolean() ? TopologyHints.of(list) : list)
                .toList();
    }

    private void assertSameMerge(
            NumaMask nodes, List<List<TopologyHint>> lists, MaskOrder order, boolean withExhaustive, String what) {
        TopologyHint fromLists = pruned.merge(nodes, lists, order);
        assertThat(pruned.merge(nodes, compact(lists), order))
                .as("compact vs list form, %s", what)
                .isEqualTo(fromLists);
        if (withExhaustive) {
            assertThat(fromLists)
                    .as("list form vs exhaustive, %s", what)
                    .isEqualTo(exhaustive.merge(nodes, lists, order));
            assertThat(exhaustive.merge(nodes, compact(lists), order))
                    .as("the exhaustive merge of the compact form, %s", what)
                    .isEqualTo(fromLists);
        }
    }

    @Test
    void randomHintsMergeTheSameInBothForms() {
        long seed = seed("random");
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            HintMergeEquivalenceTest.RandomCase c = HintMergeEquivalenceTest.RandomCase.generate(random);
            MaskOrder order = random.nextInt(3) == 0
                    ? MaskOrder.closest(HintMergeEquivalenceTest.randomDistances(
                            random, 64 - Long.numberOfLeadingZeros(c.nodes().bits())))
                    : MaskOrder.narrowest();
            String what = "case " + i + " of seed " + seed + ": " + c;
            assertSameMerge(c.nodes(), c.lists(), order, true, what);
            assertThat(pruned.merge(c.nodes(), mixed(random, c.lists()), order))
                    .as("mixed forms, %s", what)
                    .isEqualTo(exhaustive.merge(c.nodes(), c.lists(), order));
        }
    }

    @Test
    void edgeShapesMergeTheSameInBothForms() {
        NumaMask four = NumaMask.firstNodes(4);
        List<TopologyHint> everyMask = masks(four, w -> true, w -> Long.bitCount(w) == 1);
        List<TopologyHint> nothingPreferred = masks(four, w -> true, w -> false);
        List<TopologyHint> singleNodes = masks(four, w -> Long.bitCount(w) == 1, w -> w == 4L);
        List<TopologyHint> anyOnly = List.of(TopologyHint.dontCare(), TopologyHint.cannotSatisfy());
        List<TopologyHint> emptyMasks =
                List.of(TopologyHint.notPreferred(NumaMask.empty()), TopologyHint.preferred(NumaMask.empty()));
        List<TopologyHint> outsideTheMachine =
                List.of(TopologyHint.preferred(NumaMask.of(2, 9)), TopologyHint.notPreferred(NumaMask.of(9)));
        Map<String, List<List<TopologyHint>>> shapes = new HashMap<>();
        shapes.put("no providers", List.of());
        shapes.put("an empty provider", List.of(everyMask, List.of()));
        shapes.put("only an empty provider", List.of(List.of()));
        shapes.put("no preferred hint", List.of(nothingPreferred, everyMask, nothingPreferred));
        shapes.put("single-node masks", List.of(singleNodes, singleNodes, everyMask));
        shapes.put("single-node masks, nothing in common", List.of(singleNodes, masks(four, w -> w == 1L, w -> true)));
        shapes.put("only any", List.of(anyOnly, anyOnly));
        shapes.put("any and every mask", List.of(anyOnly, everyMask, nothingPreferred));
        shapes.put("empty masks", List.of(emptyMasks, everyMask));
        shapes.put("masks beyond the machine", List.of(outsideTheMachine, everyMask, singleNodes));
        for (Map.Entry<String, List<List<TopologyHint>>> shape : shapes.entrySet()) {
            for (MaskOrder order : List.of(
                    MaskOrder.narrowest(),
                    MaskOrder.closest(HintMergeEquivalenceTest.randomDistances(new Random(4), 4)))) {
                assertSameMerge(four, shape.getValue(), order, true, shape.getKey());
            }
        }
        assertThat(pruned.merge(four, compact(shapes.get("an empty provider")), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.notPreferred(four));
        assertThat(pruned.merge(four, List.of(TopologyHints.empty()), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.notPreferred(four));
        assertThat(pruned.merge(four, compact(shapes.get("single-node masks")), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(2)));
    }

    @Test
    void longListsOnMachinesUpToSixteenNodesMergeTheSameInBothForms() {
        long seed = seed("long-lists");
        Random random = new Random(seed);
        for (int i = 0; i < 300; i++) {
            int width = 3 + random.nextInt(14);
            long all = NumaMask.firstNodes(width).bits();
            if (random.nextInt(3) == 0) {
                all &= ~(1L << random.nextInt(width)); // a node missing: some masks reach beyond the machine
            }
            NumaMask nodes = NumaMask.ofBits(all);
            List<List<TopologyHint>> lists = new ArrayList<>();
            int listCount = 1 + random.nextInt(3);
            for (int l = 0; l < listCount; l++) {
                List<TopologyHint> hints = HintMergeEquivalenceTest.upwardClosedHints(random, Math.min(width, 12));
                if (random.nextInt(4) == 0) {
                    hints.add(new TopologyHint(null, random.nextBoolean()));
                }
                lists.add(hints);
            }
            double combinations = lists.stream().mapToDouble(List::size).reduce(1, (a, b) -> a * b);
            MaskOrder order = random.nextBoolean()
                    ? MaskOrder.narrowest()
                    : MaskOrder.closest(HintMergeEquivalenceTest.randomDistances(random, width));
            assertSameMerge(
                    nodes, lists, order, combinations <= 20_000, "case " + i + " of seed " + seed + " on " + nodes);
        }
    }

    @Test
    void sparseWideMachinesMergeTheSameInBothForms() {
        long seed = seed("wide");
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            NumaMask nodes = HintMergeEquivalenceTest.sparseWideMachine(random);
            long all = nodes.bits();
            List<List<TopologyHint>> lists = new ArrayList<>();
            int listCount = 1 + random.nextInt(4);
            for (int l = 0; l < listCount; l++) {
                List<TopologyHint> hints = new ArrayList<>();
                int count = 1 + random.nextInt(8);
                for (int h = 0; h < count; h++) {
                    long mask = random.nextInt(3) == 0 ? random.nextLong() : random.nextLong() & all;
                    hints.add(
                            random.nextInt(10) == 0
                                    ? new TopologyHint(null, random.nextBoolean())
                                    : new TopologyHint(NumaMask.ofBits(mask), random.nextInt(3) == 0));
                }
                lists.add(hints);
            }
            assertSameMerge(
                    nodes, lists, MaskOrder.narrowest(), true, "case " + i + " of seed " + seed + " on " + nodes);
        }
    }

    @Test
    void theBudgetShapesMergeTheSameInBothForms() {
        NumaMask sixteen = NumaMask.firstNodes(16);
        long gpuNodes = NumaMask.of(3, 12).bits();
        List<TopologyHint> cpu = masks(sixteen, w -> Long.bitCount(w) >= 2, w -> Long.bitCount(w) == 2);
        List<TopologyHint> memory = masks(sixteen, w -> true, w -> Long.bitCount(w) == 1);
        List<TopologyHint> gpu = masks(sixteen, w -> (w & gpuNodes) != 0, w -> Long.bitCount(w) == 1);
        assertThat(cpu.size() + memory.size() + gpu.size()).isEqualTo(180_206);
        List<List<TopologyHint>> all16 = List.of(cpu, memory, gpu);
        assertSameMerge(sixteen, all16, MaskOrder.narrowest(), false, "16 NUMA, every fitting mask");
        assertThat(pruned.merge(sixteen, compact(all16), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0, 1)));
        assertThat(pruned.merge(sixteen, compact(List.of(memory, memory, gpu)), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(3)));

        NumaMask wide = NumaMask.firstNodes(34);
        List<TopologyHint> singles = masks(wide, 3, w -> true, w -> Long.bitCount(w) == 1);
        List<TopologyHint> pairs = masks(wide, 3, w -> true, w -> Long.bitCount(w) == 2);
        assertThat(singles).hasSize(6579);
        List<List<TopologyHint>> all34 = List.of(singles, pairs, singles);
        assertSameMerge(wide, all34, MaskOrder.narrowest(), false, "34 NUMA, masks of 1-3 nodes");
        assertThat(pruned.merge(wide, compact(all34), MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.notPreferred(NumaMask.of(0)));
        assertSameMerge(
                wide,
                List.of(pairs, pairs, pairs),
                MaskOrder.narrowest(),
                false,
                "34 NUMA, a preferred pair in common");
    }

    @Test
    void everyPolicyAdmitsTheSameFromBothForms() {
        long seed = seed("policies");
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            HintMergeEquivalenceTest.RandomCase c = HintMergeEquivalenceTest.RandomCase.generate(random);
            List<Map<String, List<TopologyHint>>> lists = new ArrayList<>();
            List<Map<String, List<TopologyHint>>> compacts = new ArrayList<>();
            for (int l = 0; l < c.lists().size(); l++) {
                lists.add(Map.of("resource-" + l, c.lists().get(l)));
                compacts.add(Map.of("resource-" + l, TopologyHints.of(c.lists().get(l))));
            }
            for (TopologyPolicyName name : TopologyPolicyName.values()) {
                TopologyPolicy policy = TopologyPolicy.create(name, TopologyManagerOptions.defaults(), c.nodes(), null);
                // the verdict, the hint and the rejection message (which lists the first hints) alike
                assertThat(policy.admit(compacts))
                        .as("policy %s, case %d of seed %d: %s", name, i, seed, c)
                        .isEqualTo(policy.admit(lists));
            }
        }
    }

    private static List<TopologyHint> masks(NumaMask nodes, LongPredicate offers, LongPredicate prefers) {
        return masks(nodes, nodes.count(), offers, prefers);
    }

    /** Every subset of {@code nodes} of at most {@code maxSize} nodes that {@code offers} accepts, by size. */
    private static List<TopologyHint> masks(NumaMask nodes, int maxSize, LongPredicate offers, LongPredicate prefers) {
        List<TopologyHint> hints = new ArrayList<>();
        int[] ids = nodes.toArray();
        addSubsets(ids, 0, 0L, maxSize, offers, prefers, hints);
        hints.sort((a, b) -> Integer.compare(a.numaMask().count(), b.numaMask().count()));
        return hints;
    }

    private static void addSubsets(
            int[] ids,
            int from,
            long word,
            int left,
            LongPredicate offers,
            LongPredicate prefers,
            List<TopologyHint> out) {
        if (word != 0L && offers.test(word)) {
            out.add(new TopologyHint(NumaMask.ofBits(word), prefers.test(word)));
        }
        if (left == 0) {
            return;
        }
        for (int i = from; i < ids.length; i++) {
            addSubsets(ids, i + 1, word | 1L << ids[i], left - 1, offers, prefers, out);
        }
    }
}
