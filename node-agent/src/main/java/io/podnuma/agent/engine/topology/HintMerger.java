package io.podnuma.agent.engine.topology;

import java.util.List;

/**
 * Merges one hint list per (provider, resource) into the single best hint, with the kubelet's semantics:
 * every combination that takes one hint from each list is ANDed (a {@code null} mask stands for all nodes);
 * it is preferred only if all its hints are preferred and all their non-null masks are equal; empty results
 * are ignored; the best result wins (see {@link HintRanking}); with no usable result the answer is all
 * nodes, not preferred.
 */
public interface HintMerger {

    /**
     * @param defaultAffinity every NUMA node of the machine
     * @param hintLists one list per (provider, resource), already filtered by the policy; any list may be in the
     *     compact form ({@link TopologyHints}), with the same answer
     * @param order how masks compare when the ranking leaves a tie
     */
    TopologyHint merge(NumaMask defaultAffinity, List<? extends List<TopologyHint>> hintLists, MaskOrder order);
}
