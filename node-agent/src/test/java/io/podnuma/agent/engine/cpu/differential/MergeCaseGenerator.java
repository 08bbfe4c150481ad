package io.podnuma.agent.engine.cpu.differential;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Makes topology manager merge cases from a seed: 2-8 NUMA nodes (sometimes with non-contiguous ids), a
 * policy, options (now and then an invalid one, so refusals are compared too), a random distance matrix,
 * and 1-4 providers with 1-3 resources whose hint lists are either random masks or the shape a resource
 * manager produces (every mask wide enough, the narrowest preferred). No-preference providers and
 * resources, and resources that fit nowhere, are mixed in. Lists are cut so that the kubelet's exhaustive
 * merge visits at most {@link #MAX_COMBINATIONS} combinations.
 */
final class MergeCaseGenerator {

    static final int MAX_COMBINATIONS = 4096;

    private static final List<String> POLICIES = List.of("none", "best-effort", "restricted", "single-numa-node");
    private static final List<String> RESOURCES =
            List.of("cpu", "memory", "hugepages-2Mi", "example.com/gpu", "example.com/nic");
    private static final int[] REMOTE_DISTANCES = {11, 12, 20, 21, 32};

    MergeCase generate(long seed) {
        // java.util.Random's first draws are nearly equal for neighbouring seeds: scramble the seed.
        Random rnd = new Random(new SplittableRandom(seed).nextLong());
        List<Integer> nodes = nodes(rnd);
        int pick = rnd.nextInt(20);
        String policy = pick == 0 ? POLICIES.get(0) : POLICIES.get(1 + (pick - 1) % 3);
        Map<String, String> options = options(rnd);
        boolean closest = "true".equals(options.get("prefer-closest-numa-nodes"));
        // Without distances the kubelet refuses prefer-closest: give them almost always then, sometimes else.
        int[][] distances = (closest ? rnd.nextInt(20) != 0 : rnd.nextInt(3) == 0) ? distances(rnd, nodes) : null;
        List<Map<String, List<MergeCase.Hint>>> providers = new ArrayList<>();
        int providerCount = 1 + rnd.nextInt(4);
        for (int p = 0; p < providerCount; p++) {
            providers.add(provider(rnd, nodes));
        }
        capCombinations(providers);
        return new MergeCase(
                "m" + seed,
                new MergeCase.Merge(nodes, distances, policy, options.isEmpty() ? null : options, providers));
    }

    private static List<Integer> nodes(Random rnd) {
        int count = 2 + rnd.nextInt(7);
        List<Integer> nodes = new ArrayList<>();
        if (rnd.nextInt(10) < 7) {
            for (int i = 0; i < count; i++) {
                nodes.add(i);
            }
            return nodes;
        }
        // Non-contiguous: a memory-only or offline node leaves a gap in the numbering.
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            pool.add(i);
        }
        Collections.shuffle(pool, rnd);
        nodes.addAll(pool.subList(0, count));
        Collections.sort(nodes);
        return nodes;
    }

    private static Map<String, String> options(Random rnd) {
        Map<String, String> options = new LinkedHashMap<>();
        int closest = rnd.nextInt(10);
        if (closest < 5) {
            options.put("prefer-closest-numa-nodes", "true");
        } else if (closest == 5) {
            options.put("prefer-closest-numa-nodes", "false");
        }
        int max = rnd.nextInt(40);
        if (max < 6) {
            options.put("max-allowable-numa-nodes", String.valueOf(8 + 4 * max));
        } else if (max == 6) {
            options.put("max-allowable-numa-nodes", "4"); // below the minimum: both must refuse
        } else if (max == 7) {
            options.put("prefer-closest-numa-nodes", "maybe"); // not a boolean: both must refuse
        }
        return options;
    }

    /** Symmetric, 10 on the diagonal, few distinct remote values so that ties happen. */
    private static int[][] distances(Random rnd, List<Integer> nodes) {
        int size = nodes.getLast() + 1;
        int[][] m = new int[size][size];
        for (int i = 0; i < size; i++) {
            m[i][i] = 10;
            for (int j = i + 1; j < size; j++) {
                int d = REMOTE_DISTANCES[rnd.nextInt(REMOTE_DISTANCES.length)];
                m[i][j] = d;
                m[j][i] = d;
            }
        }
        return m;
    }

    private static Map<String, List<MergeCase.Hint>> provider(Random rnd, List<Integer> nodes) {
        int kind = rnd.nextInt(20);
        if (kind == 0) {
            return null;
        }
        Map<String, List<MergeCase.Hint>> resources = new HashMap<>();
        if (kind == 1) {
            return resources;
        }
        List<String> names = new ArrayList<>(RESOURCES);
        Collections.shuffle(names, rnd);
        int count = 1 + rnd.nextInt(3);
        for (String name : names.subList(0, count)) {
            int shape = rnd.nextInt(10);
            if (shape == 0) {
                resources.put(name, null);
            } else if (shape == 1) {
                resources.put(name, List.of());
            } else if (shape < 6) {
                resources.put(name, managerHints(rnd, nodes));
            } else {
                resources.put(name, randomHints(rnd, nodes));
            }
        }
        return resources;
    }

    /** Like a resource manager: every mask of at least the needed size, the narrowest ones preferred. */
    private static List<MergeCase.Hint> managerHints(Random rnd, List<Integer> nodes) {
        int needed = 1 + Math.min(rnd.nextInt(nodes.size()), rnd.nextInt(nodes.size()));
        int widest = needed + rnd.nextInt(nodes.size() - needed + 1);
        List<MergeCase.Hint> hints = new ArrayList<>();
        int n = nodes.size();
        for (int bits = 1; bits < 1 << n; bits++) {
            int size = Integer.bitCount(bits);
            // Some masks are infeasible (resources used up there).
            if (size >= needed && size <= widest && rnd.nextInt(5) != 0) {
                hints.add(new MergeCase.Hint(select(nodes, bits), size == needed));
            }
        }
        Collections.shuffle(hints, rnd);
        return hints.isEmpty() ? List.of() : hints;
    }

    private static List<MergeCase.Hint> randomHints(Random rnd, List<Integer> nodes) {
        int count = 1 + rnd.nextInt(6);
        List<MergeCase.Hint> hints = new ArrayList<>();
        int n = nodes.size();
        for (int i = 0; i < count; i++) {
            int shape = rnd.nextInt(40);
            List<Integer> mask;
            if (shape < 2) {
                mask = null; // "any node"
            } else if (shape == 2) {
                mask = List.of(); // a mask with no node, which no real provider sends
            } else {
                // Narrow masks are the interesting ones: AND of two draws makes them likelier.
                int bits = (1 + rnd.nextInt((1 << n) - 1)) & (rnd.nextBoolean() ? -1 : 1 + rnd.nextInt((1 << n) - 1));
                mask = select(nodes, bits == 0 ? 1 << rnd.nextInt(n) : bits);
            }
            hints.add(new MergeCase.Hint(mask, rnd.nextInt(3) != 0));
        }
        return hints;
    }

    private static List<Integer> select(List<Integer> nodes, int bits) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            if ((bits & 1 << i) != 0) {
                out.add(nodes.get(i));
            }
        }
        return out;
    }

    /** Shortens the longest lists until the product of all list lengths is small. */
    private static void capCombinations(List<Map<String, List<MergeCase.Hint>>> providers) {
        while (true) {
            long product = 1;
            List<MergeCase.Hint> longest = null;
            Map<String, List<MergeCase.Hint>> owner = null;
            String name = null;
            for (Map<String, List<MergeCase.Hint>> p : providers) {
                if (p == null) {
                    continue;
                }
                for (var e : p.entrySet()) {
                    if (e.getValue() != null && !e.getValue().isEmpty()) {
                        product *= e.getValue().size();
                        if (longest == null || e.getValue().size() > longest.size()) {
                            longest = e.getValue();
                            owner = p;
                            name = e.getKey();
                        }
                    }
                }
            }
            if (product <= MAX_COMBINATIONS) {
                return;
            }
            owner.put(name, List.copyOf(longest.subList(0, Math.max(1, longest.size() / 2))));
        }
    }
}
