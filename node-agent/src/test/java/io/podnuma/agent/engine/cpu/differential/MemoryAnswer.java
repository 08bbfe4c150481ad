package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The answer to a {@link MemoryCase}, as the oracle prints it and as the Java side is recorded.
 *
 * @param hang set by the oracle when the case did not finish
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record MemoryAnswer(String id, boolean hang, Result memory) {

    /**
     * @param createError the refusal of the machine or reservation, or null
     * @param table the books right after start
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Result(String createError, List<NodeRow> table, List<OpResult> ops) {

        static Result refused(String error) {
            return new Result(error, null, List.of());
        }
    }

    /**
     * @param hints when asked for: per resource name the hints in order; a resource absent from the map has
     *     no entry (the kubelet's answer when nothing fits)
     * @param blocks after a successful admission, per resource name
     * @param error the admission error, or null
     * @param table the books after the operation
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    record OpResult(
            Map<String, List<MergeCase.Hint>> hints, Map<String, Block> blocks, String error, List<NodeRow> table) {}

    /** A memory block: the NUMA nodes, ascending, and the size pinned there. */
    record Block(List<Integer> mask, long size) {}

    /**
     * One NUMA node's books.
     *
     * @param cells the node's group (itself when it holds no multi-node memory), ascending
     * @param memory per resource name
     */
    record NodeRow(int node, int assignments, List<Integer> cells, Map<String, Table> memory) {}

    /** One resource on one node, in bytes, as the kubelet's {@code MemoryTable}. */
    record Table(long total, long systemReserved, long allocatable, long reserved, long free) {}
}
