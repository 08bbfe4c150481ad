package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One topology manager merge case for the kubelet oracle (its {@code merge} case type, see
 * {@code src/test/go/kubeletoracle/merge.go}).
 *
 * @param id the case id, {@code m<seed>}: the seed regenerates it
 */
record MergeCase(String id, Merge merge) {

    /**
     * @param nodes the machine's NUMA node ids
     * @param distances indexed by node id on both axes, or null
     * @param policy the topology manager policy name
     * @param options topologyManagerPolicyOptions, or null
     * @param providers per provider (null = no map) the hint list per resource: a null list means no
     *     preference, an empty list means the resource fits nowhere
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Merge(
            List<Integer> nodes,
            int[][] distances,
            String policy,
            Map<String, String> options,
            @JsonInclude(JsonInclude.Include.ALWAYS) List<Map<String, List<Hint>>> providers) {}

    /** A provider hint; a null mask is "any node", an empty one a mask with no node. */
    record Hint(@JsonInclude(JsonInclude.Include.ALWAYS) List<Integer> mask, boolean preferred) {}
}
