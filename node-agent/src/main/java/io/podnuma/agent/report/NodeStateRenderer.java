package io.podnuma.agent.report;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.CacheGroup;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.HugePages;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.NumaDistance;
import io.podnuma.crds.v1alpha1.nodestate.NumaNode;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.crds.v1alpha1.nodestate.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@link NodeReport} → {@code NumaNodeState}: a pure function, the same report always renders the same object. */
public final class NodeStateRenderer {

    private NodeStateRenderer() {}

    public static NumaNodeState render(NodeReport report) {
        NodeState state = report.state();
        int exclusive = 0;
        List<PodAllocation> allocations = new ArrayList<>();
        for (PodAssignment pod : state.pods().values()) {
            exclusive += pod.exclusiveCpus().size();
            allocations.add(pod(state, pod));
        }
        NumaNodeState object = new NumaNodeState(report.nodeName());
        object.setStatus(new NumaNodeStateStatus(
                report.policyName().orElse(null),
                report.configHash(),
                topology(report.topology()),
                report.reservedCpus().toString(),
                state.sharedPool().toString(),
                exclusive,
                allocations,
                report.conditions(),
                report.lastError().orElse(null)));
        return object;
    }

    static NodeTopology topology(CpuTopology t) {
        List<Socket> sockets = new ArrayList<>();
        t.socketIds().forEach(id -> {
            CpuSet cpus = t.cpusInSocket(id);
            sockets.add(new Socket(id, cpus.toString(), ids(t.numaNodesOf(cpus))));
        });
        List<NumaNode> nodes = new ArrayList<>();
        List<io.podnuma.agent.engine.machine.NumaNode> machineNodes = t.numaNodes();
        for (io.podnuma.agent.engine.machine.NumaNode n : machineNodes) {
            List<HugePages> hugepages = new ArrayList<>();
            n.hugepages()
                    .forEach((kib, count) -> hugepages.add(new HugePages(pageSize(kib), bytes(kib * 1024L * count))));
            List<NumaDistance> distances = new ArrayList<>();
            for (int i = 0; i < n.distances().size(); i++) {
                distances.add(
                        new NumaDistance(machineNodes.get(i).id(), n.distances().get(i)));
            }
            nodes.add(new NumaNode(
                    n.id(),
                    n.cpus().toString(),
                    bytes(n.memoryBytes()),
                    hugepages.isEmpty() ? null : hugepages,
                    distances.isEmpty() ? null : distances));
        }
        List<CacheGroup> l3 = new ArrayList<>();
        t.uncoreCacheIds()
                .forEach(id -> l3.add(new CacheGroup(id, t.cpusInUncoreCache(id).toString())));
        return new NodeTopology(
                t.numCpus(), nodes.size(), t.cpusPerCore() > 0 ? t.cpusPerCore() : null, sockets, nodes, l3);
    }

    private static PodAllocation pod(NodeState state, PodAssignment pod) {
        List<ContainerAllocation> containers = new ArrayList<>();
        for (ContainerAssignment c : pod.containers()) {
            containers.add(new ContainerAllocation(
                    c.name(),
                    type(c.kind()),
                    state.cpusOf(pod, c).toString(),
                    nodesOrNull(c.memoryNodes()),
                    memory(c.memory())));
        }
        return new PodAllocation(
                pod.ref().namespace(),
                pod.ref().name(),
                pod.ref().uid(),
                pod.hasBubble() ? pod.bubble().toString() : null,
                nodesOrNull(pod.numaAffinity()),
                memory(pod.podMemory()),
                containers);
    }

    private static AssignmentType type(AssignmentKind kind) {
        return switch (kind) {
            case EXCLUSIVE -> AssignmentType.EXCLUSIVE;
            case POD_SHARED -> AssignmentType.POD_SHARED;
            case NODE_SHARED -> AssignmentType.NODE_SHARED;
        };
    }

    /** Bytes per resource name; absent (not empty) when nothing is pinned, as the API describes it. */
    private static Map<String, Quantity> memory(List<MemoryBlock> blocks) {
        if (blocks.isEmpty()) {
            return null;
        }
        TreeMap<String, Long> sums = new TreeMap<>();
        blocks.forEach(b -> sums.merge(b.resource().resourceName(), b.size(), Long::sum));
        TreeMap<String, Quantity> out = new TreeMap<>();
        sums.forEach((name, size) -> out.put(name, bytes(size)));
        return out;
    }

    private static List<Integer> nodesOrNull(NumaMask mask) {
        return mask.isEmpty() ? null : mask.nodes();
    }

    private static List<Integer> ids(CpuSet set) {
        List<Integer> out = new ArrayList<>();
        set.forEach(out::add);
        return out;
    }

    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    /** The largest binary suffix that divides exactly, so 2147483648 reads as 2Gi and stays exact. */
    static Quantity bytes(long bytes) {
        int i = 0;
        long value = bytes;
        while (value != 0 && value % 1024 == 0 && i < BINARY_SUFFIXES.length - 1) {
            value /= 1024;
            i++;
        }
        return new Quantity(value + BINARY_SUFFIXES[i]);
    }

    /** Huge page size in KiB as the API spells it (2048 → 2Mi, 1048576 → 1Gi). */
    static String pageSize(long kib) {
        return bytes(kib * 1024L).toString();
    }
}
