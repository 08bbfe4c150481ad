package io.podnuma.agent.engine.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A configured topology manager policy for one machine: turns the hints of every provider into a merged
 * hint and an admission verdict.
 *
 * <p>Input per provider is a map from resource name to its hints, with the kubelet's conventions: a provider
 * with no map or an empty map has no preference ("any node", preferred); a resource whose list is
 * {@code null} has no preference either; a resource whose list is empty cannot be satisfied anywhere and
 * contributes "any node, not preferred", which makes every merged result not preferred. A resource's list may
 * be a {@link TopologyHints} (the compact form a provider with hundreds of thousands of masks should give): it
 * is merged as it is, without a hint object per mask.
 */
public final class TopologyPolicy {

    private static final int HINTS_SHOWN_PER_RESOURCE = 6;
    private static final List<TopologyHint> DONT_CARE = List.of(TopologyHint.dontCare());
    private static final List<TopologyHint> CANNOT_SATISFY = List.of(TopologyHint.cannotSatisfy());

    private final TopologyPolicyName name;
    private final NumaMask nodes;
    private final MaskOrder order;
    private final HintMerger merger;

    private TopologyPolicy(TopologyPolicyName name, NumaMask nodes, MaskOrder order, HintMerger merger) {
        this.name = name;
        this.nodes = nodes;
        this.order = order;
        this.merger = merger;
    }

    /**
     * @param nodes the machine's NUMA node ids
     * @param distances the distance matrix; required only with {@code prefer-closest-numa-nodes}
     */
    public static TopologyPolicy create(
            TopologyPolicyName name, TopologyManagerOptions options, NumaMask nodes, NumaDistances distances) {
        return create(name, options, nodes, distances, new PrunedHintMerger());
    }

    static TopologyPolicy create(
            TopologyPolicyName name,
            TopologyManagerOptions options,
            NumaMask nodes,
            NumaDistances distances,
            HintMerger merger) {
        Objects.requireNonNull(name, "topology manager policy");
        Objects.requireNonNull(options, "topology manager options");
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException(
                    "the machine has no NUMA nodes: the topology manager needs at least one");
        }
        if (name != TopologyPolicyName.NONE && nodes.count() > options.maxAllowableNumaNodes()) {
            throw new IllegalArgumentException("topology manager policy " + name
                    + " is unsupported on machines with more than " + options.maxAllowableNumaNodes()
                    + " NUMA nodes: this machine has " + nodes.count() + " (" + nodes + "); set the option "
                    + TopologyManagerOptions.MAX_ALLOWABLE_NUMA_NODES + " to at least " + nodes.count());
        }
        MaskOrder order = MaskOrder.narrowest();
        // single-numa-node only ever compares single nodes, so upstream ignores distances there.
        if (options.preferClosestNumaNodes() && name != TopologyPolicyName.SINGLE_NUMA_NODE) {
            if (distances == null) {
                throw new IllegalArgumentException("topology manager option "
                        + TopologyManagerOptions.PREFER_CLOSEST_NUMA_NODES
                        + "=true needs the NUMA distances of the machine, but none were discovered");
            }
            distances.requireCovers(nodes);
            order = MaskOrder.closest(distances);
        }
        return new TopologyPolicy(name, nodes, order, merger);
    }

    public TopologyPolicyName name() {
        return name;
    }

    public NumaMask nodes() {
        return nodes;
    }

    /** Merges the providers' hints and decides admission. */
    public TopologyAdmission admit(List<Map<String, List<TopologyHint>>> providerHints) {
        if (name == TopologyPolicyName.NONE) {
            return TopologyAdmission.admit(new TopologyHint(null, false));
        }
        List<ResourceHints> lists = flatten(providerHints);
        List<List<TopologyHint>> hintLists = new ArrayList<>(lists.size());
        for (ResourceHints resource : lists) {
            hintLists.add(
                    name == TopologyPolicyName.SINGLE_NUMA_NODE ? singleNodeHints(resource.hints()) : resource.hints());
        }
        TopologyHint best = merger.merge(nodes, hintLists, order);
        switch (name) {
            case BEST_EFFORT -> {
                return TopologyAdmission.admit(best);
            }
            case RESTRICTED -> {
                return best.preferred()
                        ? TopologyAdmission.admit(best)
                        : TopologyAdmission.reject(best, rejection("admits only a preferred placement", lists, best));
            }
            case SINGLE_NUMA_NODE -> {
                TopologyHint result = nodes.equals(best.numaMask()) ? new TopologyHint(null, best.preferred()) : best;
                return result.preferred()
                        ? TopologyAdmission.admit(result)
                        : TopologyAdmission.reject(
                                result, rejection("admits only a preferred placement on one NUMA node", lists, best));
            }
            default -> throw new IllegalStateException("unhandled policy " + name);
        }
    }

    /** One hint list per (provider, resource), resources of a provider in name order. */
    static List<ResourceHints> flatten(List<Map<String, List<TopologyHint>>> providerHints) {
        List<ResourceHints> lists = new ArrayList<>();
        int providerIndex = 0;
        for (Map<String, List<TopologyHint>> provider : providerHints) {
            providerIndex++;
            if (provider == null || provider.isEmpty()) {
                lists.add(new ResourceHints("provider " + providerIndex, DONT_CARE, "no preference"));
                continue;
            }
            for (Map.Entry<String, List<TopologyHint>> entry : new TreeMap<>(provider).entrySet()) {
                List<TopologyHint> hints = entry.getValue();
                if (hints == null) {
                    lists.add(new ResourceHints(entry.getKey(), DONT_CARE, "no preference"));
                } else if (hints.isEmpty()) {
                    lists.add(new ResourceHints(entry.getKey(), CANNOT_SATISFY, "no NUMA placement can satisfy it"));
                } else if (hints instanceof TopologyHints compact) {
                    // the form of long lists: it cannot hold a null hint, so nothing to check per hint
                    lists.add(new ResourceHints(entry.getKey(), compact, null));
                } else {
                    for (TopologyHint hint : hints) {
                        Objects.requireNonNull(hint, () -> "null hint for resource " + entry.getKey());
                    }
                    // not copied: the lists are only read during this call
                    lists.add(new ResourceHints(entry.getKey(), hints, null));
                }
            }
        }
        return lists;
    }

    /**
     * The kubelet's {@code filterSingleNumaHints}: keep preferred "any" and preferred single-node hints, in the
     * form they came in.
     */
    static List<TopologyHint> singleNodeHints(List<TopologyHint> hints) {
        if (hints instanceof TopologyHints compact) {
            return singleNodeHints(compact);
        }
        List<TopologyHint> kept = new ArrayList<>();
        for (TopologyHint hint : hints) {
            if (hint.preferred() && (hint.numaMask() == null || hint.numaMask().count() == 1)) {
                kept.add(hint);
            }
        }
        return kept;
    }

    private static TopologyHints singleNodeHints(TopologyHints hints) {
        TopologyHints.Builder kept = TopologyHints.builder();
        for (int i = 0; i < hints.size(); i++) {
            if (!hints.preferredAt(i)) {
                continue;
            }
            if (hints.anyAt(i)) {
                kept.addAny(true);
            } else if (Long.bitCount(hints.maskAt(i)) == 1) {
                kept.add(hints.maskAt(i), true);
            }
        }
        return kept.build();
    }

    private String rejection(String rule, List<ResourceHints> lists, TopologyHint best) {
        StringBuilder sb = new StringBuilder("Resources cannot be allocated with Topology locality: policy ")
                .append(name)
                .append(' ')
                .append(rule)
                .append("; requested ");
        for (int i = 0; i < lists.size(); i++) {
            ResourceHints resource = lists.get(i);
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(resource.resource()).append(' ');
            if (resource.note() != null) {
                sb.append('(').append(resource.note()).append(')');
                continue;
            }
            sb.append('[');
            List<TopologyHint> hints = resource.hints();
            int shown = Math.min(hints.size(), HINTS_SHOWN_PER_RESOURCE);
            for (int j = 0; j < shown; j++) {
                if (j > 0) {
                    sb.append(", ");
                }
                sb.append(hints.get(j));
            }
            if (hints.size() > shown) {
                sb.append(", ... ").append(hints.size() - shown).append(" more");
            }
            sb.append(']');
        }
        sb.append("; best possible on NUMA nodes ")
                .append(nodes)
                .append(": ")
                .append(best.numaMask() == null ? "any" : best.numaMask().toString())
                .append(best.preferred() ? " preferred" : " not preferred");
        return sb.toString();
    }

    /** One resource's hint list, with a readable note when it stands for a convention. */
    record ResourceHints(String resource, List<TopologyHint> hints, String note) {}
}
