package io.podnuma.agent.engine.cpu.differential;

import java.util.List;
import java.util.Optional;

/**
 * The allow-list of the merge differential test: every way podnuma's topology manager deliberately
 * answers a merge case differently from the kubelet v1.37.2, by name and reason. Anything not explained
 * here fails {@link TopologyMergeDifferentialIT}.
 */
final class MergeKnownDifferences {

    /** Whether an entry explains the difference between the two answers to a case. */
    interface Explainer {
        boolean explains(MergeCase input, MergeAnswer.Result java, MergeAnswer.Result kubelet);
    }

    /** One intended difference. */
    record Entry(String name, String reason, Explainer explainer) {}

    static final Entry NO_DISTANCES_NEEDED_FOR_SINGLE_NODE = new Entry(
            "single-numa-node-needs-no-distances",
            "with prefer-closest-numa-nodes=true the kubelet refuses a machine without NUMA distances under every"
                    + " policy (NewNUMAInfo reads them first), although single-numa-node never compares by"
                    + " distance (its merge always uses Narrowest); podnuma accepts it there and merges as the"
                    + " kubelet would with any distances",
            (in, java, kubelet) -> "single-numa-node".equals(in.merge().policy())
                    && in.merge().distances() == null
                    && java.error() == null
                    && kubelet.error() != null
                    && kubelet.error().contains("NUMA distances"));

    static final Entry OPTIONS_CHECKED_UNDER_NONE = new Entry(
            "options-checked-under-none",
            "the kubelet's NewManager returns before parsing topologyManagerPolicyOptions when the policy is"
                    + " none, so a bad option there goes unnoticed until the policy changes; podnuma refuses a"
                    + " bad option under every policy",
            (in, java, kubelet) -> "none".equals(in.merge().policy())
                    && java.error() != null
                    && java.error().startsWith("topology manager option")
                    && kubelet.error() == null);

    static final List<Entry> ALL = List.of(NO_DISTANCES_NEEDED_FOR_SINGLE_NODE, OPTIONS_CHECKED_UNDER_NONE);

    private MergeKnownDifferences() {}

    static Optional<Entry> explaining(MergeCase input, MergeAnswer.Result java, MergeAnswer.Result kubelet) {
        return ALL.stream()
                .filter(e -> e.explainer().explains(input, java, kubelet))
                .findFirst();
    }
}
