package io.podnuma.bench;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyHints;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One topology-merge input: a machine of {@code numaNodes} nodes and one hint list per provider (each provider
 * has a single resource, named {@code r<index>}).
 *
 * @param id the name shared by the JMH run, the Go program and the report
 * @param description what the providers offer, for the README and the report
 */
public record MergeShape(String id, String description, int numaNodes, List<List<TopologyHint>> providers) {

    /** Shapes up to this many combinations are also merged exhaustively. */
    public static final double EXHAUSTIVE_LIMIT = 1e6;

    public MergeShape {
        providers = providers.stream().map(List::copyOf).toList();
    }

    public NumaMask nodes() {
        return NumaMask.firstNodes(numaNodes);
    }

    /** The number of combinations the kubelet visits: the product of the list sizes. */
    public double permutations() {
        double p = 1;
        for (List<TopologyHint> list : providers) {
            p *= list.size();
        }
        return p;
    }

    public int hintCount() {
        return providers.stream().mapToInt(List::size).sum();
    }

    public boolean exhaustiveFeasible() {
        return permutations() <= EXHAUSTIVE_LIMIT;
    }

    /** The best-effort policy podnuma admits with on this machine (wide machines need the node limit raised). */
    public TopologyPolicy bestEffort() {
        TopologyManagerOptions options = new TopologyManagerOptions(
                false, Math.max(TopologyManagerOptions.DEFAULT_MAX_ALLOWABLE_NUMA_NODES, numaNodes));
        return TopologyPolicy.create(TopologyPolicyName.BEST_EFFORT, options, nodes(), null);
    }

    /** The input of {@link TopologyPolicy#admit}: one map per provider. */
    public List<Map<String, List<TopologyHint>>> providerHints() {
        List<Map<String, List<TopologyHint>>> out = new ArrayList<>(providers.size());
        for (int i = 0; i < providers.size(); i++) {
            out.add(Map.of("r" + i, providers.get(i)));
        }
        return out;
    }

    /** The same input with every list in the compact form ({@link TopologyHints}), packed here, outside the merge. */
    public List<Map<String, List<TopologyHint>>> compactProviderHints() {
        List<Map<String, List<TopologyHint>>> out = new ArrayList<>(providers.size());
        for (int i = 0; i < providers.size(); i++) {
            out.add(Map.of("r" + i, TopologyHints.of(providers.get(i))));
        }
        return out;
    }

    public TopologyAdmission admit() {
        return bestEffort().admit(providerHints());
    }
}
