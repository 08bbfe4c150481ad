package io.podnuma.bench.operator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the scale bench lays its nodes and policies out, and what the operator should make of it, worked out here
 * independently of the operator's own assignment code (a bench that asked the operator what to expect would measure
 * nothing).
 *
 * <p>Node {@code i} is in pool {@code i % pools} (label {@value #POOL_LABEL}{@code =p<pool>}), unless {@link
 * #moved} says otherwise. The first {@code pools - pools/10} policies each select one pool at priority {@value
 * #PLAIN_PRIORITY}; the last tenth ("wide") each select two pools: one only they select, and one of the plain
 * policies' pools, so conflicts exist. Wide policy {@code k} has priority {@value #HIGH_PRIORITY} when {@code k % 3
 * == 0} (it takes the plain policy's pool away), {@value #LOW_PRIORITY} when {@code k % 3 == 1} (it loses that pool),
 * and {@value #PLAIN_PRIORITY} when {@code k % 3 == 2} (a tie broken by age: the plain policy is created first).
 * Policies are created in index order, so the older of two is the one with the smaller index (and name).
 *
 * @param moved nodes relabelled into another pool: node index → pool
 */
public record PoolLayout(int nodes, int pools, Map<Integer, Integer> moved) {

    public static final String POOL_LABEL = "podnuma.bench/pool";
    public static final int PLAIN_PRIORITY = 100;
    public static final int HIGH_PRIORITY = 200;
    public static final int LOW_PRIORITY = 50;

    /** One policy: its name, the pools it selects (label values {@code p<n>}) and its priority. */
    public record PolicyPlan(int index, String name, List<Integer> pools, int priority) {

        public PolicyPlan {
            pools = List.copyOf(pools);
        }

        public List<String> poolValues() {
            return pools.stream().map(PoolLayout::poolValue).toList();
        }
    }

    public PoolLayout {
        if (pools < 10 || pools % 10 != 0) {
            throw new IllegalArgumentException("pools " + pools + ": allowed a multiple of 10, at least 10");
        }
        if (nodes < pools) {
            throw new IllegalArgumentException("nodes " + nodes + ": allowed at least one per pool (" + pools + ")");
        }
        moved.forEach((node, pool) -> {
            if (node < 0 || node >= nodes || pool < 0 || pool >= pools) {
                throw new IllegalArgumentException("moved node " + node + " to pool " + pool + ": outside " + nodes
                        + " nodes and " + pools + " pools");
            }
        });
        moved = Collections.unmodifiableMap(new TreeMap<>(moved));
    }

    public static PoolLayout of(int nodes, int pools) {
        return new PoolLayout(nodes, pools, Map.of());
    }

    public static String nodeName(int index) {
        return "scale-node-%05d".formatted(index);
    }

    public static String policyName(int index) {
        return "scale-%02d".formatted(index);
    }

    public static String poolValue(int pool) {
        return "p" + pool;
    }

    public int poolOf(int node) {
        return moved.getOrDefault(node, node % pools);
    }

    private int plainCount() {
        return pools - pools / 10;
    }

    /** Every policy, in creation order. */
    public List<PolicyPlan> policies() {
        List<PolicyPlan> out = new ArrayList<>();
        int plain = plainCount();
        for (int i = 0; i < plain; i++) {
            out.add(new PolicyPlan(i, policyName(i), List.of(i), PLAIN_PRIORITY));
        }
        for (int k = 0; k < pools / 10; k++) {
            int index = plain + k;
            int priority = switch (k % 3) {
                case 0 -> HIGH_PRIORITY;
                case 1 -> LOW_PRIORITY;
                default -> PLAIN_PRIORITY;
            };
            out.add(new PolicyPlan(index, policyName(index), List.of(index, k), priority));
        }
        return out;
    }

    /** The policy that wins the nodes of {@code pool}: highest priority, then the oldest (smallest index). */
    public PolicyPlan winner(int pool) {
        return policies().stream()
                .filter(p -> p.pools().contains(pool))
                .min(Comparator.comparingInt((PolicyPlan p) -> -p.priority()).thenComparingInt(PolicyPlan::index))
                .orElseThrow(() -> new IllegalStateException("no policy selects pool " + pool));
    }

    /** Node name → the policy its {@code podnuma.io/policy} label should name. */
    public Map<String, String> expectedLabels() {
        List<PolicyPlan> winners = new ArrayList<>();
        for (int pool = 0; pool < pools; pool++) {
            winners.add(winner(pool));
        }
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < nodes; i++) {
            out.put(nodeName(i), winners.get(poolOf(i)).name());
        }
        return out;
    }

    /** Policy name → how many nodes it should govern (its status's {@code nodesMatched}); 0 for a total loser. */
    public Map<String, Integer> expectedMatched() {
        Map<String, Integer> out = new TreeMap<>();
        policies().forEach(p -> out.put(p.name(), 0));
        expectedLabels().values().forEach(policy -> out.merge(policy, 1, Integer::sum));
        return out;
    }

    /**
     * The same nodes with {@code count} nodes of pool {@code from} moved to pool {@code to} (the first ones, by
     * index, not moved already).
     */
    public PoolLayout moving(int count, int from, int to) {
        Map<Integer, Integer> next = new TreeMap<>(moved);
        int found = 0;
        for (int i = 0; i < nodes && found < count; i++) {
            if (poolOf(i) == from && !moved.containsKey(i)) {
                next.put(i, to);
                found++;
            }
        }
        if (found < count) {
            throw new IllegalArgumentException(
                    "pool " + from + " has only " + found + " nodes to move, " + count + " asked");
        }
        return new PoolLayout(nodes, pools, next);
    }

    /** The nodes whose pool differs between this layout and {@code other}. */
    public List<Integer> differences(PoolLayout other) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            if (poolOf(i) != other.poolOf(i)) {
                out.add(i);
            }
        }
        return out;
    }
}
