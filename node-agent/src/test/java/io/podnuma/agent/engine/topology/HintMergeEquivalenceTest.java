package io.podnuma.agent.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pruned merge must give exactly the exhaustive (kubelet) answer. Seeded random loops: each test prints
 * its seed, and {@code -Dpodnuma.seed=N} replays one.
 */
class HintMergeEquivalenceTest {

    private static final int CASES = 20_000;

    private final HintMerger exhaustive = new ExhaustiveHintMerger();
    private final HintMerger pruned = new PrunedHintMerger();

    private static long seed(String test) {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(HintMergeEquivalenceTest.class.getSimpleName() + "." + test + " seed=" + seed
                + " (replay with -Dpodnuma.seed=" + seed + ")");
        return seed;
    }

    @Test
    void prunedMergeEqualsExhaustiveMergeOnRandomHints() {
        long seed = seed("random");
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            RandomCase c = RandomCase.generate(random);
            TopologyHint expected = exhaustive.merge(c.nodes, c.lists, c.order);
            TopologyHint actual = pruned.merge(c.nodes, c.lists, c.order);
            assertThat(actual).as("case %d of seed %d: %s", i, seed, c).isEqualTo(expected);
        }
    }

    @Test
    void prunedMergeEqualsExhaustiveMergeWithDistances() {
        long seed = seed("distances");
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            RandomCase c = RandomCase.generate(random);
            MaskOrder order =
                    MaskOrder.closest(randomDistances(random, 64 - Long.numberOfLeadingZeros(c.nodes.bits())));
            TopologyHint expected = exhaustive.merge(c.nodes, c.lists, order);
            TopologyHint actual = pruned.merge(c.nodes, c.lists, order);
            assertThat(actual).as("case %d of seed %d: %s", i, seed, c).isEqualTo(expected);
        }
    }

    @Test
    void prunedMergeEqualsExhaustiveMergeOnLongHintLists() {
        long seed = seed("long-lists");
        Random random = new Random(seed);
        for (int i = 0; i < 400; i++) {
            int width = 3 + random.nextInt(6);
            NumaMask nodes = NumaMask.firstNodes(width);
            List<List<TopologyHint>> lists = new ArrayList<>();
            int listCount = 2 + random.nextInt(2);
            for (int l = 0; l < listCount; l++) {
                lists.add(upwardClosedHints(random, width));
            }
            MaskOrder order =
                    random.nextBoolean() ? MaskOrder.narrowest() : MaskOrder.closest(randomDistances(random, width));
            assertThat(pruned.merge(nodes, lists, order))
                    .as("case %d of seed %d: %s", i, seed, lists)
                    .isEqualTo(exhaustive.merge(nodes, lists, order));
        }
    }

    @Test
    void prunedMergeEqualsExhaustiveMergeOnSparseWideMachines() {
        long seed = seed("wide");
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            NumaMask nodes = sparseWideMachine(random);
            long all = nodes.bits();
            List<List<TopologyHint>> lists = new ArrayList<>();
            int listCount = 1 + random.nextInt(4);
            for (int l = 0; l < listCount; l++) {
                List<TopologyHint> hints = new ArrayList<>();
                int count = 1 + random.nextInt(8);
                for (int h = 0; h < count; h++) {
                    hints.add(new TopologyHint(NumaMask.ofBits(random.nextLong() & all), random.nextInt(3) == 0));
                }
                lists.add(hints);
            }
            assertThat(pruned.merge(nodes, lists, MaskOrder.narrowest()))
                    .as("case %d of seed %d: %s on %s", i, seed, lists, nodes)
                    .isEqualTo(exhaustive.merge(nodes, lists, MaskOrder.narrowest()));
        }
    }

    @Test
    void node63MasksSurviveDeduplication() {
        // Found by the wide-machine loop: {33,38,63} was once deduplicated away as if it were {33,38}.
        NumaMask nodes = NumaMask.of(33, 38, 63);
        List<List<TopologyHint>> lists = List.of(
                List.of(TopologyHint.notPreferred(nodes)),
                List.of(
                        TopologyHint.notPreferred(NumaMask.of(33)),
                        TopologyHint.notPreferred(NumaMask.of(38)),
                        TopologyHint.notPreferred(NumaMask.of(33, 38)),
                        TopologyHint.notPreferred(nodes)),
                List.of(TopologyHint.notPreferred(nodes), TopologyHint.notPreferred(NumaMask.of(63))));
        assertThat(pruned.merge(nodes, lists, MaskOrder.narrowest()))
                .isEqualTo(exhaustive.merge(nodes, lists, MaskOrder.narrowest()))
                .isEqualTo(TopologyHint.notPreferred(nodes));
    }

    /** The shape real providers give: every mask with enough capacity, the smallest ones preferred. */
    static List<TopologyHint> upwardClosedHints(Random random, int width) {
        int[] capacity = new int[width];
        int total = 0;
        for (int n = 0; n < width; n++) {
            capacity[n] = random.nextInt(5);
            total += capacity[n];
        }
        int request = 1 + random.nextInt(Math.max(1, total));
        List<NumaMask> fitting = new ArrayList<>();
        NumaMask.forEachSubsetBySize(NumaMask.firstNodes(width), word -> {
            int sum = 0;
            for (int node : NumaMask.ofBits(word).toArray()) {
                sum += capacity[node];
            }
            if (sum >= request) {
                fitting.add(NumaMask.ofBits(word));
            }
        });
        int min = fitting.stream().mapToInt(NumaMask::count).min().orElse(0);
        List<TopologyHint> hints = new ArrayList<>();
        for (NumaMask mask : fitting) {
            hints.add(new TopologyHint(mask, mask.count() == min));
        }
        return hints;
    }

    @Test
    void everyPolicyAdmitsTheSameWithBothMergers() {
        long seed = seed("policies");
        Random random = new Random(seed);
        for (int i = 0; i < CASES / 4; i++) {
            RandomCase c = RandomCase.generate(random);
            List<Map<String, List<TopologyHint>>> providers = asProviders(random, c.lists);
            for (TopologyPolicyName name : TopologyPolicyName.values()) {
                TopologyPolicy fast =
                        TopologyPolicy.create(name, TopologyManagerOptions.defaults(), c.nodes, null, pruned);
                TopologyPolicy reference =
                        TopologyPolicy.create(name, TopologyManagerOptions.defaults(), c.nodes, null, exhaustive);
                assertThat(fast.admit(providers))
                        .as("policy %s, case %d of seed %d: %s", name, i, seed, providers)
                        .isEqualTo(reference.admit(providers));
            }
        }
    }

    /** Spreads the lists over providers, sometimes with an empty provider or a null (no preference) list. */
    private static List<Map<String, List<TopologyHint>>> asProviders(Random random, List<List<TopologyHint>> lists) {
        List<Map<String, List<TopologyHint>>> providers = new ArrayList<>();
        Map<String, List<TopologyHint>> current = new HashMap<>();
        for (int i = 0; i < lists.size(); i++) {
            current.put("resource-" + i, lists.get(i));
            if (random.nextInt(3) == 0) {
                providers.add(current);
                current = new HashMap<>();
            }
        }
        if (random.nextInt(5) == 0) {
            current.put("resource-null", null);
        }
        providers.add(current);
        if (random.nextInt(5) == 0) {
            providers.add(Map.of());
        }
        return providers;
    }

    static NumaDistances randomDistances(Random random, int size) {
        int n = Math.max(size, 1);
        int[][] m = new int[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = a; b < n; b++) {
                int d = a == b ? 10 : 11 + random.nextInt(3) * 5;
                m[a][b] = d;
                m[b][a] = d;
            }
        }
        return NumaDistances.of(m);
    }

    record RandomCase(NumaMask nodes, List<List<TopologyHint>> lists, MaskOrder order) {

        static RandomCase generate(Random random) {
            int width = 1 + random.nextInt(6);
            long all = (1L << width) - 1;
            if (random.nextInt(4) == 0) {
                // non-contiguous node ids, e.g. a machine with node 1 missing
                all &= ~(1L << random.nextInt(width));
                if (all == 0) {
                    all = 1;
                }
            }
            NumaMask nodes = NumaMask.ofBits(all);
            int listCount = random.nextInt(5);
            List<List<TopologyHint>> lists = new ArrayList<>();
            for (int l = 0; l < listCount; l++) {
                int hintCount = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(6);
                List<TopologyHint> hints = new ArrayList<>();
                for (int h = 0; h < hintCount; h++) {
                    boolean preferred = random.nextBoolean();
                    if (random.nextInt(8) == 0) {
                        hints.add(new TopologyHint(null, preferred));
                        continue;
                    }
                    // mostly masks inside the machine, sometimes with a bit outside it
                    long mask = random.nextLong() & ((1L << (width + 1)) - 1);
                    if (random.nextInt(4) != 0) {
                        mask &= all;
                    }
                    hints.add(new TopologyHint(
                            mask == 0 && random.nextBoolean() ? nodes : NumaMask.ofBits(mask), preferred));
                }
                lists.add(hints);
            }
            return new RandomCase(nodes, lists, MaskOrder.narrowest());
        }
    }

    /** Up to 8 node ids anywhere in 0..63, so the search uses hashing and node 63 sorts last. */
    static NumaMask sparseWideMachine(Random random) {
        long all = 0;
        int size = 1 + random.nextInt(8);
        while (Long.bitCount(all) < size) {
            all |= 1L << (random.nextInt(4) == 0 ? 63 : random.nextInt(64));
        }
        return NumaMask.ofBits(all);
    }
}
