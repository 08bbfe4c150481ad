package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.memory.NumaMemory;
import io.podnuma.agent.engine.memory.StaticMemoryPolicy;
import io.podnuma.agent.engine.node.manager.CpuManager;
import io.podnuma.agent.engine.node.manager.MemoryManager;
import io.podnuma.agent.engine.node.manager.NoneCpuManager;
import io.podnuma.agent.engine.node.manager.NoneMemoryManager;
import io.podnuma.agent.engine.node.manager.StaticCpuManager;
import io.podnuma.agent.engine.node.manager.StaticMemoryManager;
import io.podnuma.agent.engine.node.validation.NodeStateValidator;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaDistances;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The node's resource managers together: admits pods (all or nothing) and removes pods and containers, as
 * pure functions from one {@link NodeState} to the next.
 *
 * <p>Which rules apply to a pod: pod scope with a pod-level budget (and pod-level resources enabled) uses the
 * hybrid model of spec §2; other pods under pod scope get one hint for the pod and per-container CPUs (§4);
 * container scope places each container alone (§3, §4). Ephemeral containers always run on the node pool.
 */
public final class NodeAllocator {

    private final CpuTopology topo;
    private final NodeConfig config;
    private final Managers managers;
    private final NodeStateValidator validator;

    private NodeAllocator(CpuTopology topo, NodeConfig config, Managers managers) {
        this.topo = topo;
        this.config = config;
        this.managers = managers;
        this.validator = new NodeStateValidator(topo, config.topologyPolicy(), managers.cpu(), managers.memory());
    }

    /**
     * @throws IllegalArgumentException when the configuration does not fit the machine (reserved CPUs or
     *     memory, options, NUMA node count); the message names the setting
     */
    public static NodeAllocator create(CpuTopology topo, NodeConfig config) {
        CpuManager cpu = config.cpuPolicy() == NodeConfig.CpuPolicy.STATIC
                ? new StaticCpuManager(StaticPolicy.create(
                        topo,
                        config.cpuOptions(),
                        config.reservedCpus(),
                        config.topologyPolicy().configName()))
                : new NoneCpuManager(topo.onlineCpus());
        MemoryManager memory = config.memoryPolicy() == NodeConfig.MemoryPolicy.STATIC
                ? new StaticMemoryManager(new StaticMemoryPolicy(machineMemory(topo), config.reservedMemory()))
                : new NoneMemoryManager();
        NumaMask nodes = NumaMask.of(topo.numaNodes().stream().map(NumaNode::id).toList());
        TopologyPolicy topology =
                TopologyPolicy.create(config.topologyPolicy(), config.topologyOptions(), nodes, distances(topo));
        return new NodeAllocator(topo, config, new Managers(topo, cpu, memory, topology));
    }

    /** Per NUMA node: its memory and pre-allocated huge pages in bytes, as the memory manager accounts them. */
    public static List<NumaMemory> machineMemory(CpuTopology topo) {
        List<NumaMemory> out = new ArrayList<>();
        for (NumaNode n : topo.numaNodes()) {
            TreeMap<Long, Long> pages = new TreeMap<>();
            n.hugepages().forEach((kib, count) -> pages.put(kib * 1024L, kib * 1024L * count));
            out.add(new NumaMemory(n.id(), n.memoryBytes(), pages));
        }
        return out;
    }

    /** The distance matrix indexed by node id, or null when the machine does not report distances. */
    private static NumaDistances distances(CpuTopology topo) {
        int size = 0;
        for (NumaNode n : topo.numaNodes()) {
            size = Math.max(size, n.id() + 1);
        }
        int[][] matrix = new int[size][size];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                int d = i == j ? 10 : topo.distance(i, j);
                if (d < 0 && topo.numaNode(i).isPresent() && topo.numaNode(j).isPresent()) {
                    return null;
                }
                matrix[i][j] = Math.max(d, 0);
            }
        }
        return NumaDistances.of(matrix);
    }

    public CpuTopology topology() {
        return topo;
    }

    public NodeConfig config() {
        return config;
    }

    /** The CPUs never handed out exclusively (empty without the static CPU policy). */
    public CpuSet reservedCpus() {
        return managers.cpu().reserved();
    }

    /** The node before any pod: every online CPU shared (minus reserved CPUs with strict reservation). */
    public NodeState initialState() {
        CpuSet shared = managers.cpu().initialSharedPool();
        return NodeState.empty(shared);
    }

    /** Admits a pod without devices; a pod already admitted keeps its first answer. */
    public AdmissionResult admit(NodeState state, Pod pod) {
        return admit(state, pod, PodDevices.NONE);
    }

    /**
     * Admits a pod whose containers hold {@code devices} (the kubelet gave them before creating the containers): the
     * devices' NUMA nodes are hints beside the CPU and memory hints. A pod already admitted keeps its first answer.
     */
    public AdmissionResult admit(NodeState state, Pod pod, PodDevices devices) {
        PodAssignment existing = state.pods().get(pod.ref().uid());
        if (existing != null) {
            return new AdmissionResult.Admitted(state, existing);
        }
        Pod effective = config.podLevelResources() ? pod : pod.withoutPodResources();
        CpuState cpuState = cpuState(state);
        MemoryState memState = memoryState(state);
        try {
            Planned planned;
            if (config.topologyScope() == NodeConfig.TopologyScope.POD && effective.hasPodLevelResources()) {
                planned = new PodLevelPlanner(managers).plan(effective, cpuState, memState, devices);
            } else {
                boolean podScope = config.topologyScope() == NodeConfig.TopologyScope.POD;
                planned = new PerContainerPlanner(managers, podScope).plan(effective, cpuState, memState, devices);
            }
            return new AdmissionResult.Admitted(state.withPod(planned.sharedPool(), planned.pod()), planned.pod());
        } catch (RejectedException e) {
            return new AdmissionResult.Rejected(pod.ref(), e.reason(), e.getMessage());
        }
    }

    /**
     * Admits a pod as {@link #admit} would on a node whose only free CPUs are those of {@code within}: the
     * topology manager, CPU and memory managers decide as usual, so the answer is one {@link #admit} could give.
     * Used to rebuild lost books from what running containers hold: a pod whose cpusets are still a valid
     * placement gets exactly that placement back instead of being moved.
     *
     * @param within the CPUs the pod may take (intersected with the node's free CPUs)
     */
    public AdmissionResult admitWithin(NodeState state, Pod pod, CpuSet within) {
        return admitWithin(state, pod, within, PodDevices.NONE);
    }

    /** {@link #admitWithin(NodeState, Pod, CpuSet)} of a pod holding {@code devices}. */
    public AdmissionResult admitWithin(NodeState state, Pod pod, CpuSet within, PodDevices devices) {
        NodeState narrowed = new NodeState(state.sharedPool().intersection(within), state.pods());
        return switch (admit(narrowed, pod, devices)) {
            case AdmissionResult.Admitted a -> {
                CpuSet shared = state.sharedPool().difference(a.pod().exclusiveCpus());
                yield new AdmissionResult.Admitted(state.withPod(shared, a.pod()), a.pod());
            }
            case AdmissionResult.Rejected r -> r;
        };
    }

    /**
     * Resizes an admitted pod in place to {@code resized}'s CPUs ({@code resize} subresource): its budget
     * ({@link BudgetResize}) or, placed per container, its containers' exclusive CPUs ({@link ContainerResize}). The
     * pod keeps every CPU it holds and gains or gives back the difference; what cannot be done in place is
     * {@link ResizeResult.Infeasible} with the state unchanged.
     */
    public ResizeResult resize(NodeState state, Pod resized) {
        PodAssignment held = state.pods().get(resized.ref().uid());
        if (held == null) {
            return new ResizeResult.NotHeld(resized.ref(), "the pod is not admitted");
        }
        return held.hasBubble()
                ? new BudgetResize(managers, config.podLevelResources()).resize(state, held, resized)
                : new ContainerResize(managers).resize(state, held, resized);
    }

    /** Removes a pod: its bubble, exclusive CPUs and memory return to the node. Unknown pods: no change. */
    public NodeState remove(NodeState state, String podUid) {
        PodAssignment pod = state.pods().get(podUid);
        if (pod == null) {
            return state;
        }
        CpuState cpus = cpuState(state);
        for (String owner : ownersOf(pod)) {
            cpus = managers.cpu().release(cpus, owner);
        }
        return state.withoutPod(cpus.defaultSet(), podUid);
    }

    /**
     * Removes one container's entry. With a bubble, a dead container's slice is not given back to the pod's
     * shared pool and the bubble returns to the node only with the pod's last entry; otherwise its exclusive
     * CPUs and memory return to the node at once.
     */
    public NodeState removeContainer(NodeState state, String podUid, String container) {
        PodAssignment pod = state.pods().get(podUid);
        if (pod == null || pod.container(container).isEmpty()) {
            return state;
        }
        PodAssignment rest = pod.withoutContainer(container);
        if (rest.containers().isEmpty()) {
            return remove(state, podUid);
        }
        ContainerAssignment c = pod.container(container).orElseThrow();
        CpuSet shared = state.sharedPool();
        if (!pod.hasBubble() && c.kind() == AssignmentKind.EXCLUSIVE) {
            shared = managers.cpu()
                    .release(cpuState(state), NodeState.containerOwner(podUid, container))
                    .defaultSet();
        }
        return state.withPod(shared, rest);
    }

    private static List<String> ownersOf(PodAssignment pod) {
        if (pod.hasBubble()) {
            return List.of(pod.ref().uid());
        }
        List<String> owners = new ArrayList<>();
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                owners.add(NodeState.containerOwner(pod.ref().uid(), c.name()));
            }
        }
        return owners;
    }

    /**
     * Checks that a state read back (e.g. from a checkpoint) is one this engine could have produced on this
     * machine under this configuration: every pod passes {@link #validateAssignments}; its NUMA placement keeps
     * the promise of the topology manager policy in force (none: no affinity; restricted: exclusive CPUs within
     * the pod's affinity; single-numa-node: the pod, or each container under container placement, on one NUMA
     * node); every CPU is online, no CPU is exclusive twice or both exclusive and shared, reserved CPUs are never
     * exclusive, the pools add up to the online CPUs, and the memory books rebuild.
     *
     * <p>Runs in tests only (the oracle that every state the engine produces passes); production runs
     * {@link #validateAssignments}.
     *
     * @return the same state
     * @throws IllegalArgumentException naming the pod, container, field and value that do not fit, and what was
     *     expected
     */
    public NodeState validate(NodeState state) {
        return validator.validate(state);
    }

    /**
     * Checks each pod's assignment against the shapes the planners produce, whatever policy admitted it (a pod
     * keeps its assignment across a policy change): container order and kinds consistent with the pod's QoS and
     * placement; ephemeral containers on the node pool; a pod-level bubble split into disjoint long-running
     * slices and the pod shared pool, which every long-running pod-shared container runs on; standard init
     * containers beside the sidecars before them; without a bubble, exclusive CPUs shared only by reuse of a
     * finished init container's; memory blocks well formed and within the pod budget; {@code memoryNodes} the
     * nodes of the container's (or its pod-level pod's) memory; memory never narrower than the pod's affinity;
     * every NUMA node id on this machine.
     *
     * <p>Runs in production: the agent checks its checkpoint with it at start ({@code NodeAgent.loadCheckpoint}).
     *
     * @return the same state
     * @throws IllegalArgumentException naming the pod, container, field and value, and what was expected
     */
    public NodeState validateAssignments(NodeState state) {
        return validator.validateAssignments(state);
    }

    /** The CPU manager's books for a node state. */
    public CpuState cpuState(NodeState state) {
        return new CpuState(state.sharedPool(), state.cpuOwners());
    }

    /**
     * The memory manager's books for a node state (null without the Static memory policy).
     *
     * @throws IllegalArgumentException when the state's blocks do not fit this machine
     */
    public MemoryState memoryState(NodeState state) {
        return managers.memory().restore(state.memoryOwners()).orElse(null);
    }
}
