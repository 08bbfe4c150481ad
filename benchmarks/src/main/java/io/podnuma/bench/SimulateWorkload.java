package io.podnuma.bench;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.pod.ResourceList;
import io.podnuma.agent.engine.pod.Resources;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The engine side of {@code simulate}: 110 pods (the kubelet's default pod limit) admitted one after another on
 * an empty 384-CPU node with the static CPU policy and the best-effort topology manager at container scope:
 * every tenth pod burstable (node shared pool), the others guaranteed with 1, 2 or 4 exclusive CPUs. Manifest
 * parsing and printing are left out, so the figure compares with the kubelet's admission code alone.
 */
public final class SimulateWorkload {

    public static final String ID = "simulate/110-pods";
    public static final int PODS = 110;

    private static final int[] GUARANTEED_CPUS = {2, 4, 1, 2, 4};
    private static final long GIB = 1L << 30;

    /** One pod of the workload: {@code cpus} whole CPUs if guaranteed, else a 500m request without limits. */
    public record PodSpec(String name, int cpus, boolean guaranteed) {}

    private final NodeAllocator allocator;
    private final List<Pod> pods;

    public SimulateWorkload(CpuTopology topo) {
        this.allocator = NodeAllocator.create(topo, config());
        this.pods = specs().stream().map(SimulateWorkload::pod).toList();
    }

    static NodeConfig config() {
        return new NodeConfig(
                NodeConfig.CpuPolicy.STATIC,
                ReservedCpus.count(AllocationScenario.RESERVED_COUNT),
                StaticPolicyOptions.NONE,
                NodeConfig.MemoryPolicy.NONE,
                null,
                TopologyPolicyName.BEST_EFFORT,
                NodeConfig.TopologyScope.CONTAINER,
                TopologyManagerOptions.defaults(),
                false);
    }

    public static List<PodSpec> specs() {
        List<PodSpec> specs = new ArrayList<>(PODS);
        for (int i = 0; i < PODS; i++) {
            String name = String.format("sim-%03d", i);
            boolean guaranteed = i % 10 != 9;
            specs.add(new PodSpec(name, guaranteed ? GUARANTEED_CPUS[i % GUARANTEED_CPUS.length] : 0, guaranteed));
        }
        return specs;
    }

    private static Pod pod(PodSpec spec) {
        Resources resources = spec.guaranteed()
                ? Resources.guaranteed(ResourceList.of(spec.cpus() * 1000L, GIB))
                : new Resources(ResourceList.of(500L, GIB / 4), ResourceList.EMPTY);
        Container main = new Container(NodeLoad.CONTAINER, ContainerType.APP, resources);
        return new Pod(
                new PodRef(spec.name(), "default", spec.name()), Optional.empty(), List.of(), List.of(main), List.of());
    }

    /** The measured operation: admits every pod in order on an empty node; fails on a rejection. */
    public NodeState run() {
        NodeState state = allocator.initialState();
        for (Pod pod : pods) {
            AdmissionResult result = allocator.admit(state, pod);
            if (!(result instanceof AdmissionResult.Admitted admitted)) {
                throw new IllegalStateException("simulate workload rejected " + result);
            }
            state = admitted.state();
        }
        return state;
    }
}
