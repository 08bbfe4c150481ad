package io.podnuma.agent.podresources;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Node states built by the real engine on the 2-socket Intel fixture (CPUs 0-31,64-95 on NUMA node 0 and
 * 32-63,96-127 on node 1; 192Gi per node of which 1Gi are 2Mi pages and 8Gi are 1Gi pages), with CPUs 0 and 64
 * and 1Gi of memory per node reserved.
 */
final class EngineStates {

    static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);

    private EngineStates() {}

    static NodeConfig config(NodeConfig.TopologyScope scope, boolean staticMemory) {
        return new NodeConfig(
                NodeConfig.CpuPolicy.STATIC,
                ReservedCpus.explicit(CpuSet.parse("0,64")),
                StaticPolicyOptions.NONE,
                staticMemory ? NodeConfig.MemoryPolicy.STATIC : NodeConfig.MemoryPolicy.NONE,
                new ReservedMemory(Map.of(
                        0, Map.of(MemoryResource.MEMORY, MemoryQuantity.parseBytes("1Gi")),
                        1, Map.of(MemoryResource.MEMORY, MemoryQuantity.parseBytes("1Gi")))),
                TopologyPolicyName.SINGLE_NUMA_NODE,
                scope,
                TopologyManagerOptions.defaults(),
                true);
    }

    /** The spec's worked example: budget 8 CPUs / 16Gi, sidecars a (1 CPU) and b, init container i, app m. */
    static Pod hybrid() {
        return pod("hybrid")
                .budget("8", "16Gi")
                .sidecar("a", "1", "1Gi")
                .sidecar("b", null, null)
                .init("i", null, null)
                .app("m", "6", "8Gi")
                .ephemeral("debug")
                .build();
    }

    /** A Guaranteed pod without a budget: {@code whole} gets 2 CPUs of its own, {@code half} runs shared. */
    static Pod perContainer() {
        return pod("classic")
                .init("setup", "1", "1Gi")
                .app("whole", "2", "2Gi")
                .app("half", "500m", "1Gi")
                .build();
    }

    /** A BestEffort pod: every container on the node shared pool. */
    static Pod bestEffort() {
        return pod("besteffort").app("web", null, null).build();
    }

    static Scenario admit(NodeConfig config, Pod... pods) {
        NodeAllocator allocator = NodeAllocator.create(INTEL, config);
        NodeState state = allocator.initialState();
        List<ListedPod> listed = new ArrayList<>();
        for (Pod p : pods) {
            AdmissionResult r = allocator.admit(state, p);
            assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
            state = ((AdmissionResult.Admitted) r).state();
            listed.add(ListedPod.of(p));
        }
        return new Scenario(allocator, new PodResourcesSnapshot(state, listed, AllocatableResources.of(allocator)));
    }

    record Scenario(NodeAllocator allocator, PodResourcesSnapshot snapshot) {}
}
