package io.podnuma.agent.report.nrt;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.NumaMemory;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Attribute;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Cost;
import io.podnuma.agent.report.nrt.NodeResourceTopology.ResourceInfo;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Zone;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders the node's {@code NodeResourceTopology} from the engine's view, without I/O.
 *
 * <p>One zone {@code node-<id>} of type {@code Node} per NUMA node that has CPUs or memory. Per zone:
 *
 * <ul>
 *   <li>{@code cpu}: capacity = the node's online CPUs; allocatable = minus reserved CPUs; available = minus CPUs held
 *       exclusively by pods (bubbles and exclusive containers) minus the node's share of the shared-pool requests,
 *       shared in proportion to each node's CPUs left after those two, never below zero.
 *   <li>{@code memory}: capacity = {@code MemTotal}; allocatable = minus reserved memory and huge pages (as the
 *       kubelet's node allocatable); available = minus pinned blocks minus the node's share of unpinned memory
 *       requests (in proportion to what each node has left).
 *   <li>{@code hugepages-<size>}: capacity = the pre-allocated pages; allocatable = minus reserved; available = minus
 *       pinned blocks.
 * </ul>
 *
 * Resources a zone has none of (CPUs on a memory-only node, a page size without pages) are left out, so a scheduler
 * never counts on them. Reserved memory counts only under the Static memory policy, which is the only one that reads it.
 */
public final class NodeResourceTopologyRenderer {

    public static final String ZONE_TYPE_NODE = "Node";
    public static final String ATTRIBUTE_POLICY = "topologyManagerPolicy";
    public static final String ATTRIBUTE_SCOPE = "topologyManagerScope";

    private NodeResourceTopologyRenderer() {}

    public static NodeResourceTopology render(NrtReport report) {
        NodeAllocator allocator = report.allocator();
        CpuTopology topo = allocator.topology();
        NodeConfig config = allocator.config();
        List<NumaNode> nodes = topo.numaNodes().stream()
                .filter(n -> !n.cpus().isEmpty() || n.memoryBytes() > 0)
                .toList();

        long[] cpuLeft = new long[nodes.size()];
        long[] cpuCapacity = new long[nodes.size()];
        long[] cpuAllocatable = new long[nodes.size()];
        CpuSet exclusive = exclusiveCpus(report.state());
        for (int i = 0; i < nodes.size(); i++) {
            CpuSet cpus = nodes.get(i).cpus();
            cpuCapacity[i] = cpus.size();
            cpuAllocatable[i] = cpus.difference(allocator.reservedCpus()).size();
            cpuLeft[i] = Math.max(0, cpuAllocatable[i] - cpus.intersectionSize(exclusive)) * 1000L;
        }
        long[] cpuShare = Shares.split(report.sharedRequests().cpuMillis(), cpuLeft);

        Map<Integer, NumaMemory> memory = new TreeMap<>();
        NodeAllocator.machineMemory(topo).forEach(m -> memory.put(m.node(), m));
        ReservedMemory reserved = config.memoryPolicy() == NodeConfig.MemoryPolicy.STATIC
                ? config.reservedMemory()
                : new ReservedMemory(Map.of());
        Map<Integer, Map<MemoryResource, Long>> pinned = pinnedBytes(report.state());
        long[] memoryAllocatable = new long[nodes.size()];
        long[] memoryLeft = new long[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            int id = nodes.get(i).id();
            NumaMemory m = memory.get(id);
            memoryAllocatable[i] = Math.max(
                    0, m.memoryBytes() - reserved.reserved(id, MemoryResource.MEMORY) - m.hugepagesTotalBytes());
            memoryLeft[i] = Math.max(0, memoryAllocatable[i] - pinned(pinned, id, MemoryResource.MEMORY));
        }
        long[] memoryShare = Shares.split(report.sharedRequests().memoryBytes(), memoryLeft);

        List<Zone> zones = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            int id = nodes.get(i).id();
            List<ResourceInfo> resources = new ArrayList<>();
            if (cpuCapacity[i] > 0) {
                resources.add(new ResourceInfo(
                        "cpu",
                        cpu(cpuCapacity[i] * 1000L),
                        cpu(cpuAllocatable[i] * 1000L),
                        cpu(Math.max(0, cpuLeft[i] - cpuShare[i]))));
            }
            NumaMemory m = memory.get(id);
            if (m.memoryBytes() > 0) {
                resources.add(new ResourceInfo(
                        MemoryResource.MEMORY.resourceName(),
                        bytes(m.memoryBytes()),
                        bytes(memoryAllocatable[i]),
                        bytes(Math.max(0, memoryLeft[i] - memoryShare[i]))));
            }
            for (Map.Entry<Long, Long> pages : m.hugepagesBytes().entrySet()) {
                if (pages.getValue() == 0) {
                    continue;
                }
                MemoryResource r = MemoryResource.hugepages(pages.getKey());
                long allocatable = Math.max(0, pages.getValue() - reserved.reserved(id, r));
                resources.add(new ResourceInfo(
                        r.resourceName(),
                        bytes(pages.getValue()),
                        bytes(allocatable),
                        bytes(Math.max(0, allocatable - pinned(pinned, id, r)))));
            }
            resources.sort(Comparator.comparing(ResourceInfo::name));
            zones.add(new Zone(zoneName(id), ZONE_TYPE_NODE, costs(topo, id, nodes), resources, List.of()));
        }

        String policy = config.topologyPolicy().configName();
        String scope = scope(config.topologyScope());
        return new NodeResourceTopology(
                report.nodeName(),
                report.nodeUid(),
                List.of(deprecatedPolicy(config.topologyPolicy(), config.topologyScope())),
                zones,
                List.of(new Attribute(ATTRIBUTE_POLICY, policy), new Attribute(ATTRIBUTE_SCOPE, scope)));
    }

    public static String zoneName(int numaNode) {
        return "node-" + numaNode;
    }

    private static CpuSet exclusiveCpus(NodeState state) {
        CpuSet.Builder b = CpuSet.builder();
        for (PodAssignment pod : state.pods().values()) {
            b.addAll(pod.exclusiveCpus());
        }
        return b.build();
    }

    /** Per NUMA node and resource, the bytes taken from it by pinned blocks (what each block charged there). */
    private static Map<Integer, Map<MemoryResource, Long>> pinnedBytes(NodeState state) {
        Map<Integer, Map<MemoryResource, Long>> out = new TreeMap<>();
        for (List<MemoryBlock> blocks : state.memoryOwners().values()) {
            for (MemoryBlock block : blocks) {
                block.charged()
                        .forEach((node, bytes) -> out.computeIfAbsent(node, k -> new TreeMap<>())
                                .merge(block.resource(), bytes, Long::sum));
            }
        }
        return out;
    }

    private static long pinned(Map<Integer, Map<MemoryResource, Long>> pinned, int node, MemoryResource r) {
        return pinned.getOrDefault(node, Map.of()).getOrDefault(r, 0L);
    }

    /** Distances to every zone in zone order; none when the machine reports no distances for this node. */
    private static List<Cost> costs(CpuTopology topo, int from, List<NumaNode> zones) {
        List<Cost> costs = new ArrayList<>();
        for (NumaNode to : zones) {
            int d = topo.distance(from, to.id());
            if (d > 0) {
                costs.add(new Cost(zoneName(to.id()), d));
            }
        }
        return costs;
    }

    private static String scope(NodeConfig.TopologyScope scope) {
        return switch (scope) {
            case CONTAINER -> "container";
            case POD -> "pod";
        };
    }

    /** The v1alpha2 {@code topologyPolicies} word for a policy and scope (deprecated, but the field is required). */
    static String deprecatedPolicy(TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        String level = scope == NodeConfig.TopologyScope.POD ? "PodLevel" : "ContainerLevel";
        return switch (policy) {
            case NONE -> "None";
            case BEST_EFFORT -> "BestEffort" + level;
            case RESTRICTED -> "Restricted" + level;
            case SINGLE_NUMA_NODE -> "SingleNUMANode" + level;
        };
    }

    /** Canonical CPU quantity: whole CPUs without a suffix, else millicores. */
    static String cpu(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : millis + "m";
    }

    /** Canonical memory quantity: the largest exact binary suffix, else plain bytes. */
    static String bytes(long bytes) {
        return MemoryQuantity.format(bytes);
    }
}
