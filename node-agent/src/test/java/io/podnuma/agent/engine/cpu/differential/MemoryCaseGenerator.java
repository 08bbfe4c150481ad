package io.podnuma.agent.engine.cpu.differential;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Makes memory manager cases from a seed: 1-8 NUMA nodes (sometimes with non-contiguous ids), equal or
 * uneven memory per node, no huge pages or 2Mi and/or 1Gi pages (every node lists the same sizes, some with
 * zero pages, as cAdvisor reports them), a per-node reservation (now and then none at all, which both sides
 * must refuse), and 4-16 operations over a few pods: admissions of containers whose memory fits a fraction
 * of a node, about a node, several nodes or more than the machine, sometimes with huge pages, under "any
 * node" or a random NUMA mask (preferred or not); re-admissions; removals, also of unknown containers.
 */
final class MemoryCaseGenerator {

    static final long MI = 1L << 20;
    static final long GI = 1L << 30;
    /** Page sizes in KiB, cAdvisor's unit. */
    private static final long PAGE_2MI_KIB = 2048;

    private static final long PAGE_1GI_KIB = 1024 * 1024;

    MemoryCase generate(long seed) {
        // java.util.Random's first draws are nearly equal for neighbouring seeds: scramble the seed.
        Random rnd = new Random(new SplittableRandom(seed).nextLong());
        List<Integer> ids = nodeIds(rnd);
        List<Long> pageSizes = pageSizes(rnd);
        boolean even = rnd.nextInt(10) < 6;
        long evenRegular = (2 + rnd.nextInt(31)) * GI;
        List<MemoryCase.Node> nodes = new ArrayList<>();
        for (int id : ids) {
            Map<Long, Long> pages = new TreeMap<>();
            long hugeBytes = 0;
            for (long size : pageSizes) {
                long count = size == PAGE_2MI_KIB ? 256L * rnd.nextInt(9) : rnd.nextInt(5);
                pages.put(size, count);
                hugeBytes += count * size * 1024;
            }
            long regular = even ? evenRegular : (1 + rnd.nextInt(32)) * GI + 256 * MI * rnd.nextInt(4);
            nodes.add(new MemoryCase.Node(id, regular + hugeBytes, pages));
        }
        Map<Integer, Map<String, Long>> reserved = reserved(rnd, nodes);
        List<MemoryCase.Op> ops = ops(rnd, nodes, ids);
        return new MemoryCase("mem" + seed, new MemoryCase.Memory(nodes, reserved, ops));
    }

    private static List<Integer> nodeIds(Random rnd) {
        int count = 1 + rnd.nextInt(8);
        if (count > 4 && rnd.nextBoolean()) {
            count = 2 + rnd.nextInt(3); // mostly small machines, where groups and contention are frequent
        }
        List<Integer> ids = new ArrayList<>();
        if (rnd.nextInt(10) < 7) {
            for (int i = 0; i < count; i++) {
                ids.add(i);
            }
            return ids;
        }
        // Non-contiguous: memory-only or offline nodes leave gaps in the numbering.
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            pool.add(i);
        }
        Collections.shuffle(pool, rnd);
        ids.addAll(pool.subList(0, count));
        Collections.sort(ids);
        return ids;
    }

    private static List<Long> pageSizes(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> List.of();
            case 1 -> List.of(PAGE_2MI_KIB);
            case 2 -> List.of(PAGE_1GI_KIB);
            default -> List.of(PAGE_2MI_KIB, PAGE_1GI_KIB);
        };
    }

    static String hugepagesName(long pageKib) {
        return pageKib == PAGE_2MI_KIB ? "hugepages-2Mi" : "hugepages-1Gi";
    }

    private static Map<Integer, Map<String, Long>> reserved(Random rnd, List<MemoryCase.Node> nodes) {
        boolean none = rnd.nextInt(25) == 0;
        Map<Integer, Map<String, Long>> reserved = new TreeMap<>();
        for (MemoryCase.Node node : nodes) {
            Map<String, Long> resources = new TreeMap<>();
            long memory = none ? 0 : 256 * MI * rnd.nextInt(5);
            if (memory > 0 || rnd.nextInt(4) == 0) {
                resources.put("memory", memory);
            }
            for (Map.Entry<Long, Long> pages : node.hugepages().entrySet()) {
                if (pages.getValue() > 0 && rnd.nextInt(4) == 0) {
                    long count = rnd.nextInt((int) Math.min(pages.getValue(), 4) + 1);
                    resources.put(hugepagesName(pages.getKey()), count * pages.getKey() * 1024);
                }
            }
            if (!resources.isEmpty()) {
                reserved.put(node.id(), resources);
            }
        }
        if (!none && reserved.values().stream().noneMatch(r -> r.getOrDefault("memory", 0L) > 0)) {
            // The Static policy needs some memory reserved: put it on one node.
            reserved.computeIfAbsent(nodes.get(rnd.nextInt(nodes.size())).id(), k -> new TreeMap<>())
                    .put("memory", 512 * MI);
        }
        return reserved;
    }

    private static List<MemoryCase.Op> ops(Random rnd, List<MemoryCase.Node> nodes, List<Integer> ids) {
        long nodeMemory = nodes.stream().mapToLong(MemoryCase.Node::memory).sum() / nodes.size();
        List<Long> pageSizes = new ArrayList<>(nodes.getFirst().hugepages().keySet());
        int count = 4 + rnd.nextInt(13);
        int pods = 1 + rnd.nextInt(5);
        List<String> added = new ArrayList<>();
        List<MemoryCase.Op> ops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!added.isEmpty() && rnd.nextInt(10) < 3) {
                String owner = rnd.nextInt(8) == 0 ? "p9/c9" : added.remove(rnd.nextInt(added.size()));
                String[] parts = owner.split("/");
                ops.add(MemoryCase.Op.remove(parts[0], parts[1]));
                continue;
            }
            boolean again = !added.isEmpty() && rnd.nextInt(12) == 0;
            String owner = again ? added.get(rnd.nextInt(added.size())) : "p" + rnd.nextInt(pods) + "/c" + i;
            String[] parts = owner.split("/");
            Map<String, Long> request = new LinkedHashMap<>();
            request.put("memory", memorySize(rnd, nodeMemory, nodes.size()));
            for (long size : pageSizes) {
                if (rnd.nextInt(3) == 0) {
                    long pages = size == PAGE_2MI_KIB ? 64L * (1 + rnd.nextInt(8)) : 1 + rnd.nextInt(2);
                    request.put(hugepagesName(size), pages * size * 1024);
                }
            }
            List<Integer> mask = null;
            boolean preferred = true;
            if (rnd.nextInt(20) < 13) {
                mask = randomMask(rnd, ids);
                preferred = rnd.nextInt(10) < 7;
            } else if (rnd.nextInt(10) == 0) {
                preferred = false;
            }
            ops.add(MemoryCase.Op.add(parts[0], parts[1], request, !again && rnd.nextInt(10) < 6, mask, preferred));
            if (!again) {
                added.add(owner);
            }
        }
        return ops;
    }

    private static long memorySize(Random rnd, long nodeMemory, int nodeCount) {
        long units = Math.max(1, nodeMemory / (64 * MI));
        return switch (rnd.nextInt(20)) {
            case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 -> 64 * MI * (1 + rnd.nextLong(Math.max(1, units / 3)));
            case 10, 11, 12, 13 -> 64 * MI * (units * 3 / 4 + rnd.nextLong(units / 2 + 1)); // about a node
            case 14, 15, 16, 17, 18 -> 64 * MI * (units + rnd.nextLong(units * Math.min(nodeCount, 3) + 1));
            default -> 64 * MI * (units * nodeCount + 1 + rnd.nextLong(units + 1)); // more than the machine
        };
    }

    private static List<Integer> randomMask(Random rnd, List<Integer> ids) {
        int size = rnd.nextInt(10) < 6 ? 1 : 1 + rnd.nextInt(ids.size());
        List<Integer> pool = new ArrayList<>(ids);
        Collections.shuffle(pool, rnd);
        List<Integer> mask = new ArrayList<>(pool.subList(0, size));
        Collections.sort(mask);
        return mask;
    }
}
