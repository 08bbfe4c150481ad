package io.podnuma.agent.engine.memory;

import static io.podnuma.agent.engine.memory.MemoryResource.MEMORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random allocate/release sequences on random machines: the books stay consistent, allocate-then-release
 * restores the state, groups never overlap, and a hint the policy offered can always be allocated. Seeded:
 * the seed is printed, {@code -Dpodnuma.seed=N} replays it.
 */
class StaticMemoryPolicyInvariantsTest {

    private static final long MI = 1L << 20;
    private static final long GI = 1L << 30;
    private static final MemoryResource HP2M = MemoryResource.hugepages(2 * MI);

    @Test
    void randomSequencesKeepTheBooksConsistent() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random random = new Random(seed);
        int allocations = 0;
        int rejections = 0;
        for (int machineCase = 0; machineCase < 300; machineCase++) {
            StaticMemoryPolicy policy = randomPolicy(random);
            MemoryState initial = policy.initialState();
            MemoryState state = initial;
            List<String> owners = new ArrayList<>();
            for (int step = 0; step < 30; step++) {
                String context = "seed " + seed + ", machine " + machineCase + ", step " + step;
                if (owners.isEmpty() || random.nextInt(10) < 6) {
                    String owner = "pod-" + step + "/c";
                    Map<MemoryResource, Long> request = randomRequest(random, state);
                    TopologyHint offered = pickOfferedHint(random, policy.hints(state, request));
                    TopologyHint hint = offered != null ? offered : randomHint(random, policy.nodes());
                    try {
                        MemoryState next = policy.allocate(state, owner, hint, request);
                        assertConsistent(next, context);
                        assertThat(policy.release(next, owner)).as(context).isEqualTo(state);
                        assertThat(policy.allocate(state, owner, hint, request))
                                .as(context)
                                .isEqualTo(next);
                        state = next;
                        owners.add(owner);
                        allocations++;
                    } catch (MemoryAllocationException e) {
                        assertThat(offered)
                                .as(
                                        "%s: the policy offered %s for %s but could not allocate it: %s",
                                        context, offered, request, e.getMessage())
                                .isNull();
                        rejections++;
                    }
                } else {
                    String owner = owners.remove(random.nextInt(owners.size()));
                    state = policy.release(state, owner);
                    assertConsistent(state, context);
                }
            }
            for (String owner : owners) {
                state = policy.release(state, owner);
            }
            assertThat(state)
                    .as("machine %d of seed %d after releasing everything", machineCase, seed)
                    .isEqualTo(initial);
        }
        System.out.println(
                getClass().getSimpleName() + ": " + allocations + " allocations, " + rejections + " rejections");
        assertThat(allocations).isPositive();
        assertThat(rejections).isPositive();
    }

    private static StaticMemoryPolicy randomPolicy(Random random) {
        int nodes = 1 + random.nextInt(4);
        List<NumaMemory> machine = new ArrayList<>();
        Map<Integer, Map<MemoryResource, Long>> reserved = new HashMap<>();
        for (int node = 0; node < nodes; node++) {
            long memory = (4 + random.nextInt(13)) * GI;
            Map<Long, Long> hugepages =
                    random.nextBoolean() ? Map.of(2 * MI, (long) random.nextInt(512) * 2 * MI) : Map.of();
            machine.add(new NumaMemory(node, memory, hugepages));
            reserved.put(node, Map.of(MEMORY, node == 0 ? GI : random.nextInt(4) * 128 * MI));
        }
        return new StaticMemoryPolicy(machine, new ReservedMemory(reserved));
    }

    private static Map<MemoryResource, Long> randomRequest(Random random, MemoryState state) {
        Map<MemoryResource, Long> request = new HashMap<>();
        request.put(MEMORY, (1 + random.nextInt(80)) * 256 * MI);
        boolean hugepagesEverywhere = state.nodes().values().stream().anyMatch(n -> n.table(HP2M) != null);
        if (hugepagesEverywhere && random.nextInt(3) == 0) {
            request.put(HP2M, (long) random.nextInt(200) * 2 * MI);
        }
        return request;
    }

    private static TopologyHint pickOfferedHint(Random random, Map<String, List<TopologyHint>> hints) {
        List<TopologyHint> memoryHints = hints.get("memory");
        if (memoryHints == null || memoryHints.isEmpty() || random.nextInt(3) == 0) {
            return null;
        }
        return memoryHints.get(random.nextInt(memoryHints.size()));
    }

    private static TopologyHint randomHint(Random random, NumaMask nodes) {
        if (random.nextInt(4) == 0) {
            return new TopologyHint(null, random.nextBoolean());
        }
        long mask = random.nextLong() & nodes.bits();
        return new TopologyHint(mask == 0 ? nodes : NumaMask.ofBits(mask), random.nextBoolean());
    }

    private static void assertConsistent(MemoryState state, String context) {
        Map<Integer, Map<MemoryResource, Long>> charged = new HashMap<>();
        Map<Integer, Integer> blocksPerNode = new HashMap<>();
        for (List<MemoryBlock> blocks : state.blocks().values()) {
            for (MemoryBlock block : blocks) {
                for (int node : block.nodes().toArray()) {
                    blocksPerNode.merge(node, 1, Integer::sum);
                    assertThat(state.node(node).group())
                            .as("%s: node %d serves only its group", context, node)
                            .isEqualTo(block.nodes());
                }
                block.charged()
                        .forEach((node, bytes) -> charged.computeIfAbsent(node, n -> new HashMap<>())
                                .merge(block.resource(), bytes, Long::sum));
            }
        }
        for (NodeMemoryState node : state.nodes().values()) {
            assertThat(node.assignments()).as(context).isEqualTo(blocksPerNode.getOrDefault(node.node(), 0));
            if (node.assignments() == 0) {
                assertThat(node.group()).as(context).isEqualTo(NumaMask.of(node.node()));
            }
            node.tables().forEach((resource, table) -> {
                assertThat(table.free()).as(context).isNotNegative();
                assertThat(table.reserved())
                        .as("%s: node %d %s reserved equals what blocks charged", context, node.node(), resource)
                        .isEqualTo(charged.getOrDefault(node.node(), Map.of()).getOrDefault(resource, 0L));
            });
            for (NodeMemoryState other : state.nodes().values()) {
                boolean same = node.group().equals(other.group());
                boolean disjoint = node.group().and(other.group()).isEmpty();
                assertThat(same || disjoint)
                        .as("%s: groups %s and %s overlap", context, node.group(), other.group())
                        .isTrue();
            }
        }
    }
}
