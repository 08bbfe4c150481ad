package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyHints;
import java.util.List;

/**
 * Connects the CPU policy to the topology manager: its hints become {@link TopologyHint}s, and the
 * merged {@link NumaMask} becomes the NUMA affinity {@link StaticPolicy#allocate} takes.
 */
public final class CpuHintAdapter {

    private CpuHintAdapter() {}

    /** In the compact form: a provider on a wide machine offers hundreds of thousands of masks. */
    public static List<TopologyHint> toTopologyHints(List<CpuHint> hints) {
        TopologyHints.Builder out = TopologyHints.builder(hints.size());
        for (CpuHint h : hints) {
            out.add(toMask(h.numaNodes()), h.preferred());
        }
        return out.build();
    }

    /**
     * @throws IllegalArgumentException for a node id the topology manager's masks cannot hold
     */
    public static NumaMask toMask(CpuSet nodes) {
        if (!nodes.isEmpty() && nodes.last() >= NumaMask.MAX_NODES) {
            throw new IllegalArgumentException("NUMA node " + nodes.last()
                    + " is beyond the topology manager's limit of " + NumaMask.MAX_NODES + " nodes");
        }
        return NumaMask.of(nodes.toArray());
    }

    /** The affinity for {@link StaticPolicy#allocate}: empty (no preference) for a don't-care hint. */
    public static CpuSet affinity(TopologyHint merged) {
        return merged == null || merged.isDontCare()
                ? CpuSet.empty()
                : CpuSet.of(merged.numaMask().toArray());
    }
}
