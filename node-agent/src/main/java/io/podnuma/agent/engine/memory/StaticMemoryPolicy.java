package io.podnuma.agent.engine.memory;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyHints;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The memory manager's Static policy: NUMA-pinned accounting of {@code memory} and each huge page size.
 *
 * <p>Rules, as in the kubelet: memory is a counter per node and resource, not an address range; a request
 * bigger than one node is pinned to a group of nodes; a node holding a single-node allocation cannot join a
 * group, and a node in a group serves only that group (podnuma also refuses a single-node allocation on a
 * grouped node, which the kubelet lets slip through at allocation time). Hints are the masks whose summed
 * allocatable memory covers every requested resource, whose group rules hold and whose free memory
 * suffices; the masks of minimal size by allocatable memory are preferred.
 */
public final class StaticMemoryPolicy {

    /** Hint generation visits every subset of the nodes, as the kubelet does. */
    static final int MAX_NODES_FOR_HINTS = 20;

    private final MemoryState initial;
    private final NumaMask nodes;
    private final TreeSet<MemoryResource> resources = new TreeSet<>();

    /**
     * @param machine one entry per NUMA node
     * @param reserved memory kept for the system per node and resource; the {@code memory} reservation must
     *     not be zero in total (the kubelet refuses to start the Static policy without it)
     */
    public StaticMemoryPolicy(List<NumaMemory> machine, ReservedMemory reserved) {
        if (machine.isEmpty()) {
            throw new IllegalArgumentException(
                    "the machine has no NUMA nodes: the Static memory policy needs at least one");
        }
        Map<Integer, NodeMemoryState> states = new TreeMap<>();
        for (NumaMemory numa : machine) {
            if (states.containsKey(numa.node())) {
                throw new IllegalArgumentException(
                        "NUMA node " + numa.node() + " is listed twice in the machine memory");
            }
            states.put(numa.node(), initialNode(numa, reserved));
        }
        this.nodes = NumaMask.of(states.keySet());
        validateReservation(reserved, states);
        states.values().forEach(state -> resources.addAll(state.tables().keySet()));
        this.initial = new MemoryState(states, Map.of());
    }

    private static NodeMemoryState initialNode(NumaMemory numa, ReservedMemory reserved) {
        Map<MemoryResource, MemoryTable> tables = new TreeMap<>();
        for (Map.Entry<Long, Long> pages : numa.hugepagesBytes().entrySet()) {
            MemoryResource resource = MemoryResource.hugepages(pages.getKey());
            long systemReserved = reserved.reserved(numa.node(), resource);
            long allocatable = pages.getValue() - systemReserved;
            if (allocatable < 0) {
                throw tooMuchReserved(numa.node(), resource, systemReserved, pages.getValue());
            }
            tables.put(resource, MemoryTable.initial(pages.getValue(), systemReserved, allocatable));
        }
        long systemReserved = reserved.reserved(numa.node(), MemoryResource.MEMORY);
        long allocatable = numa.memoryBytes() - systemReserved - numa.hugepagesTotalBytes();
        if (allocatable < 0) {
            throw new IllegalArgumentException("reservedMemory for NUMA node " + numa.node() + " memory is "
                    + MemoryQuantity.format(systemReserved) + ", but the node has only "
                    + MemoryQuantity.format(numa.memoryBytes()) + " of which "
                    + MemoryQuantity.format(numa.hugepagesTotalBytes())
                    + " are huge pages: reserve at most "
                    + MemoryQuantity.format(Math.max(0, numa.memoryBytes() - numa.hugepagesTotalBytes())));
        }
        tables.put(MemoryResource.MEMORY, MemoryTable.initial(numa.memoryBytes(), systemReserved, allocatable));
        return new NodeMemoryState(numa.node(), tables, 0, NumaMask.of(numa.node()));
    }

    private static IllegalArgumentException tooMuchReserved(
            int node, MemoryResource resource, long reserved, long total) {
        return new IllegalArgumentException("reservedMemory for NUMA node " + node + " " + resource + " is "
                + MemoryQuantity.format(reserved) + ", more than the " + MemoryQuantity.format(total)
                + " the node has");
    }

    private static void validateReservation(ReservedMemory reserved, Map<Integer, NodeMemoryState> states) {
        for (Map.Entry<Integer, Map<MemoryResource, Long>> node :
                reserved.perNode().entrySet()) {
            NodeMemoryState state = states.get(node.getKey());
            if (state == null) {
                throw new IllegalArgumentException("reservedMemory names NUMA node " + node.getKey()
                        + ", which does not exist: the machine has nodes " + NumaMask.of(states.keySet()));
            }
            for (MemoryResource resource : node.getValue().keySet()) {
                if (state.table(resource) == null) {
                    throw new IllegalArgumentException("reservedMemory for NUMA node " + node.getKey() + " names "
                            + resource + ", which that node does not have: it has "
                            + state.tables().keySet());
                }
            }
        }
        if (reserved.total(MemoryResource.MEMORY) <= 0) {
            StringBuilder perNode = new StringBuilder();
            for (int node : states.keySet()) {
                perNode.append(perNode.isEmpty() ? "" : ", ")
                        .append(node)
                        .append(": ")
                        .append(MemoryQuantity.format(reserved.reserved(node, MemoryResource.MEMORY)));
            }
            throw new IllegalArgumentException("the Static memory manager policy needs memory reserved for the system,"
                    + " but reservedMemory gives 0 on every NUMA node (" + perNode
                    + "): set reservedMemory memory for at least one NUMA node, matching the node's"
                    + " system-reserved + kube-reserved + eviction threshold");
        }
    }

    public MemoryState initialState() {
        return initial;
    }

    public NumaMask nodes() {
        return nodes;
    }

    /**
     * Topology hints for a request, keyed by resource name; every resource gets the same masks. A resource
     * that fits nowhere gets an empty list (the topology manager treats that as "cannot satisfy"); an
     * empty request gives an empty map (no preference).
     */
    public Map<String, List<TopologyHint>> hints(MemoryState state, Map<MemoryResource, Long> request) {
        validateRequest(request, request, "request");
        Map<String, List<TopologyHint>> result = new LinkedHashMap<>();
        if (request.isEmpty()) {
            return result;
        }
        List<TopologyHint> hints = calculate(state, request);
        for (MemoryResource resource : new TreeSet<>(request.keySet())) {
            result.put(resource.resourceName(), hints);
        }
        return result;
    }

    /** The kubelet's {@code calculateHints}: one list, shared by all requested resources. */
    private List<TopologyHint> calculate(MemoryState state, Map<MemoryResource, Long> request) {
        if (nodes.count() > MAX_NODES_FOR_HINTS) {
            throw new MemoryAllocationException("memory hints for " + nodes.count()
                    + " NUMA nodes are not supported yet: the Static memory policy enumerates every node subset and"
                    + " handles at most " + MAX_NODES_FOR_HINTS);
        }
        List<NumaMask> fitting = new ArrayList<>();
        int[] minSize = {nodes.count()};
        NumaMask.forEachSubsetBySize(nodes, word -> {
            NumaMask mask = NumaMask.ofBits(word);
            for (Map.Entry<MemoryResource, Long> entry : request.entrySet()) {
                if (state.allocatable(mask, entry.getKey()) < entry.getValue()) {
                    return;
                }
            }
            minSize[0] = Math.min(minSize[0], mask.count());
            if (!groupRulesHold(state, mask)) {
                return;
            }
            for (Map.Entry<MemoryResource, Long> entry : request.entrySet()) {
                if (state.free(mask, entry.getKey()) < entry.getValue()) {
                    return;
                }
            }
            fitting.add(mask);
        });
        TopologyHints.Builder hints = TopologyHints.builder(fitting.size());
        for (NumaMask mask : fitting) {
            hints.add(mask, mask.count() == minSize[0]);
        }
        return hints.build();
    }

    /** Whether an allocation on {@code mask} keeps single-node and group allocations apart. */
    private static boolean groupRulesHold(MemoryState state, NumaMask mask) {
        for (int node : mask.toArray()) {
            NodeMemoryState nodeState = state.node(node);
            if (mask.count() == 1) {
                if (nodeState.inMultiNodeGroup()) {
                    return false;
                }
            } else if (nodeState.assignments() > 0 && !nodeState.group().equals(mask)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The narrowest hint that contains {@code mask} and fits (preferred first): used when the merged
     * topology hint is narrower than the memory needs.
     */
    public TopologyHint extend(MemoryState state, Map<MemoryResource, Long> request, NumaMask mask) {
        validateRequest(request, request, "request");
        List<TopologyHint> containing = new ArrayList<>();
        for (TopologyHint hint : calculate(state, request)) {
            if (mask.isSubsetOf(hint.numaMask())) {
                containing.add(hint);
            }
        }
        if (containing.isEmpty()) {
            throw new MemoryAllocationException("cannot extend NUMA nodes " + mask + " to fit " + describe(request)
                    + ": no superset of it has enough free memory within the group rules; "
                    + describeFree(state, request));
        }
        return best(containing);
    }

    /** The kubelet's {@code findBestHint}: preferred before not preferred, then narrower. */
    private static TopologyHint best(List<TopologyHint> hints) {
        TopologyHint best = null;
        for (TopologyHint hint : hints) {
            if (best == null
                    || (hint.preferred() && !best.preferred())
                    || (hint.preferred() == best.preferred() && hint.numaMask().isNarrowerThan(best.numaMask()))) {
                best = hint;
            }
        }
        return best;
    }

    /** Allocates and charges the full request. */
    public MemoryState allocate(MemoryState state, String owner, TopologyHint hint, Map<MemoryResource, Long> request) {
        return allocate(state, owner, hint, request, request);
    }

    /**
     * Pins {@code sizes} for {@code owner} on the NUMA nodes of {@code hint} (extended if too narrow, chosen
     * by this policy if the hint has no mask) and charges {@code charges}, which may be smaller than the
     * sizes (memory the caller already holds for the same pod). Free-memory checks use the charges.
     * Allocating for an owner that already holds blocks returns the state unchanged.
     *
     * @throws MemoryAllocationException when no placement fits
     */
    public MemoryState allocate(
            MemoryState state,
            String owner,
            TopologyHint hint,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges) {
        validateRequest(sizes, charges, owner);
        if (state.blocks().containsKey(owner) || sizes.isEmpty()) {
            return state;
        }
        NumaMask mask = hint.numaMask();
        if (mask == null) {
            List<TopologyHint> all = calculate(state, charges);
            if (all.isEmpty()) {
                throw new MemoryAllocationException(owner + ": no NUMA node combination has enough free memory for "
                        + describe(charges) + "; " + describeFree(state, charges));
            }
            TopologyHint chosen = best(all);
            if (!chosen.preferred() && hint.preferred()) {
                throw new MemoryAllocationException(owner + ": the topology manager expects a preferred placement for "
                        + describe(charges) + ", but the best is " + chosen.numaMask() + " (not preferred)");
            }
            mask = chosen.numaMask();
        }
        if (mask.isEmpty() || !mask.isSubsetOf(nodes)) {
            throw new MemoryAllocationException(
                    owner + ": NUMA nodes " + mask + " are not a non-empty subset of the machine's " + nodes);
        }
        if (!fitsFree(state, mask, charges)) {
            TopologyHint extended = extend(state, charges, mask);
            if (!extended.preferred() && hint.preferred()) {
                throw new MemoryAllocationException(owner + ": " + mask + " is too small for " + describe(charges)
                        + " and its narrowest extension " + extended.numaMask() + " is not preferred");
            }
            mask = extended.numaMask();
        }
        if (!groupRulesHold(state, mask)) {
            throw new MemoryAllocationException(owner + ": NUMA nodes " + mask
                    + " would mix single-node and multi-node allocations (" + describeGroups(state, mask)
                    + "); a node in a group serves only that group");
        }
        return charge(state, owner, mask, sizes, charges);
    }

    private static boolean fitsFree(MemoryState state, NumaMask mask, Map<MemoryResource, Long> request) {
        for (Map.Entry<MemoryResource, Long> entry : request.entrySet()) {
            if (state.free(mask, entry.getKey()) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static MemoryState charge(
            MemoryState state,
            String owner,
            NumaMask mask,
            Map<MemoryResource, Long> sizes,
            Map<MemoryResource, Long> charges) {
        Map<Integer, NodeMemoryState> nodes = new TreeMap<>(state.nodes());
        List<MemoryBlock> blocks = new ArrayList<>();
        for (MemoryResource resource : new TreeSet<>(sizes.keySet())) {
            long remaining = charges.get(resource);
            Map<Integer, Long> charged = new TreeMap<>();
            for (int node : mask.toArray()) {
                NodeMemoryState nodeState = nodes.get(node).assigned(mask);
                MemoryTable table = nodeState.table(resource);
                // A group may include nodes without this huge page size; they serve the other resources.
                long take = table == null ? 0 : Math.min(remaining, table.free());
                if (take > 0) {
                    nodeState = nodeState.with(resource, table.charge(take));
                    charged.put(node, take);
                    remaining -= take;
                }
                nodes.put(node, nodeState);
            }
            blocks.add(new MemoryBlock(resource, sizes.get(resource), mask, charged));
        }
        Map<String, List<MemoryBlock>> owners = new HashMap<>(state.blocks());
        owners.put(owner, blocks);
        return new MemoryState(nodes, owners);
    }

    /**
     * Rebuilds the books from every owner's blocks (a checkpoint, or a state kept as plain assignments): each
     * block charges exactly its recorded per-node bytes and joins its nodes into its group.
     *
     * @throws IllegalArgumentException naming the owner and block when a block names an unknown node or
     *     resource, or the blocks charge more than a node has
     */
    public MemoryState restore(Map<String, List<MemoryBlock>> owners) {
        Map<Integer, NodeMemoryState> states = new TreeMap<>(initial.nodes());
        for (Map.Entry<String, List<MemoryBlock>> owner : new TreeMap<>(owners).entrySet()) {
            for (MemoryBlock block : owner.getValue()) {
                if (block.nodes().isEmpty() || !block.nodes().isSubsetOf(nodes)) {
                    throw new IllegalArgumentException("memory block of " + owner.getKey() + " (" + block.resource()
                            + ") names NUMA nodes " + block.nodes() + ": allowed a non-empty subset of " + nodes);
                }
                if (!resources.contains(block.resource())) {
                    throw new IllegalArgumentException("memory block of " + owner.getKey() + " names "
                            + block.resource() + ", which this machine does not have: it has " + resources);
                }
                for (int node : block.nodes().toArray()) {
                    NodeMemoryState nodeState = states.get(node).assigned(block.nodes());
                    long bytes = block.charged().getOrDefault(node, 0L);
                    if (bytes > 0) {
                        MemoryTable table = nodeState.table(block.resource());
                        if (table == null || table.free() < bytes) {
                            throw new IllegalArgumentException("memory block of " + owner.getKey() + " charges "
                                    + MemoryQuantity.format(bytes) + " of " + block.resource() + " to NUMA node " + node
                                    + ", which has only " + MemoryQuantity.format(table == null ? 0 : table.free())
                                    + " free");
                        }
                        nodeState = nodeState.with(block.resource(), table.charge(bytes));
                    }
                    states.put(node, nodeState);
                }
            }
        }
        return new MemoryState(states, owners);
    }

    /** Gives back exactly what the owner's blocks charged; unknown owners leave the state unchanged. */
    public MemoryState release(MemoryState state, String owner) {
        List<MemoryBlock> blocks = state.blocks().get(owner);
        if (blocks == null) {
            return state;
        }
        Map<Integer, NodeMemoryState> nodes = new TreeMap<>(state.nodes());
        for (MemoryBlock block : blocks) {
            for (int node : block.nodes().toArray()) {
                NodeMemoryState nodeState = nodes.get(node).unassigned();
                long bytes = block.charged().getOrDefault(node, 0L);
                if (bytes > 0) {
                    nodeState = nodeState.with(
                            block.resource(), nodeState.table(block.resource()).release(bytes));
                }
                nodes.put(node, nodeState);
            }
        }
        Map<String, List<MemoryBlock>> owners = new HashMap<>(state.blocks());
        owners.remove(owner);
        return new MemoryState(nodes, owners);
    }

    private void validateRequest(Map<MemoryResource, Long> sizes, Map<MemoryResource, Long> charges, String owner) {
        if (!sizes.keySet().equals(charges.keySet())) {
            throw new IllegalArgumentException(owner + ": charges " + charges.keySet()
                    + " must name the same resources as the sizes " + sizes.keySet());
        }
        for (Map.Entry<MemoryResource, Long> entry : sizes.entrySet()) {
            MemoryResource resource = entry.getKey();
            long size = entry.getValue();
            long charge = charges.get(resource);
            if (size < 0 || charge < 0 || charge > size) {
                throw new IllegalArgumentException(owner + ": " + resource + " size " + size + " and charge " + charge
                        + " must satisfy 0 <= charge <= size");
            }
            if (!resources.contains(resource)) {
                throw new MemoryAllocationException(
                        owner + ": " + resource + " is not available on this machine: it has " + resources);
            }
        }
    }

    private static String describe(Map<MemoryResource, Long> request) {
        StringBuilder sb = new StringBuilder();
        for (MemoryResource resource : new TreeSet<>(request.keySet())) {
            sb.append(sb.isEmpty() ? "" : ", ")
                    .append(resource)
                    .append('=')
                    .append(MemoryQuantity.format(request.get(resource)));
        }
        return sb.toString();
    }

    private static String describeFree(MemoryState state, Map<MemoryResource, Long> request) {
        StringBuilder sb = new StringBuilder("free per NUMA node:");
        for (NodeMemoryState node : state.nodes().values()) {
            sb.append(' ').append(node.node()).append(" {");
            boolean first = true;
            for (MemoryResource resource : new TreeSet<>(request.keySet())) {
                MemoryTable table = node.table(resource);
                sb.append(first ? "" : ", ")
                        .append(resource)
                        .append('=')
                        .append(MemoryQuantity.format(table == null ? 0 : table.free()));
                first = false;
            }
            sb.append('}');
            if (node.inMultiNodeGroup()) {
                sb.append(" in group ").append(node.group());
            }
        }
        return sb.toString();
    }

    private static String describeGroups(MemoryState state, NumaMask mask) {
        StringBuilder sb = new StringBuilder();
        for (int node : mask.toArray()) {
            NodeMemoryState nodeState = state.node(node);
            sb.append(sb.isEmpty() ? "" : ", ").append("node ").append(node);
            if (nodeState.assignments() == 0) {
                sb.append(" unused");
            } else if (nodeState.inMultiNodeGroup()) {
                sb.append(" in group ").append(nodeState.group());
            } else {
                sb.append(" holds single-node memory");
            }
        }
        return sb.toString();
    }
}
