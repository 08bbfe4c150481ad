package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One memory manager case for the kubelet oracle (its {@code memory} case type, see
 * {@code src/test/go/kubeletoracle/memory.go}): a machine, a reservation and container operations.
 *
 * @param id the case id, {@code mem<seed>}: the seed regenerates it
 */
record MemoryCase(String id, Memory memory) {

    /**
     * @param nodes the NUMA nodes, ascending by id
     * @param reserved reservedMemory: node id to resource name to bytes
     */
    record Memory(List<Node> nodes, Map<Integer, Map<String, Long>> reserved, List<Op> ops) {}

    /**
     * A NUMA node as cAdvisor reports it.
     *
     * @param memory total bytes, huge pages included
     * @param hugepages page size in KiB (cAdvisor's unit) to number of pages
     */
    record Node(int id, long memory, Map<Long, Long> hugepages) {}

    /**
     * Admission ({@code add}) of a Guaranteed container or its removal ({@code remove}).
     *
     * @param request resource name ({@code memory}, {@code hugepages-<size>}) to bytes, request = limit
     * @param hints whether to ask for the policy's topology hints before the allocation
     * @param mask the topology manager's affinity for the container; null is "any node"
     * @param preferred whether that affinity is preferred
     */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    record Op(
            String op,
            String pod,
            String container,
            Map<String, Long> request,
            boolean hints,
            @JsonInclude(JsonInclude.Include.ALWAYS) List<Integer> mask,
            @JsonInclude(JsonInclude.Include.ALWAYS) boolean preferred) {

        static Op add(
                String pod,
                String container,
                Map<String, Long> request,
                boolean hints,
                List<Integer> mask,
                boolean preferred) {
            return new Op("add", pod, container, request, hints, mask, preferred);
        }

        static Op remove(String pod, String container) {
            return new Op("remove", pod, container, null, false, null, false);
        }

        String owner() {
            return pod + "/" + container;
        }
    }
}
