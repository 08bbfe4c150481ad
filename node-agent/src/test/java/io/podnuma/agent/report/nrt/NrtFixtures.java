package io.podnuma.agent.report.nrt;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.TestPods;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.Map;
import java.util.Optional;

/**
 * The sub-NUMA-clustering fixture (2 sockets x 24 cores, 4 NUMA nodes of 24 CPUs and 96 GiB, 256 x 2 MiB and 4 x 1
 * GiB huge pages each, distances 10 / 11 same socket / 21 across), static CPU and memory policies, CPUs 0 and 48
 * (one core of node 0) and 1 GiB of node 0's memory reserved, single-numa-node at pod scope.
 */
final class NrtFixtures {

    static final CpuTopology SNC2 = Fixtures.topology(FakeMachine.INTEL_2S_SNC2);

    static final NodeAllocator ALLOCATOR = NodeAllocator.create(SNC2, config(NodeConfig.CpuPolicy.STATIC));

    private NrtFixtures() {}

    static NodeConfig config(NodeConfig.CpuPolicy cpuPolicy) {
        return new NodeConfig(
                cpuPolicy,
                ReservedCpus.explicit(CpuSet.parse("0,48")),
                StaticPolicyOptions.NONE,
                NodeConfig.MemoryPolicy.STATIC,
                new ReservedMemory(Map.of(0, Map.of(MemoryResource.MEMORY, 1L << 30))),
                TopologyPolicyName.SINGLE_NUMA_NODE,
                NodeConfig.TopologyScope.POD,
                TopologyManagerOptions.defaults(),
                true);
    }

    /** A pod-level pod (budget 8 CPUs, 4 GiB and 128 MiB of 2 MiB pages; a 4-CPU app, a shared sidecar). */
    static Pod bubblePod() {
        return TestPods.pod("bubble")
                .budget("8", "4Gi")
                .budgetHugepages("2Mi", "128Mi")
                .sidecar("log", "500m", "64Mi")
                .app("main", "4", "2Gi")
                .build();
    }

    /** A classic Guaranteed pod: one 2-CPU, 1 GiB container. */
    static Pod plainPod() {
        return TestPods.pod("plain").app("app", "2", "1Gi").build();
    }

    static NodeState admit(NodeAllocator allocator, NodeState state, Pod pod) {
        if (!(allocator.admit(state, pod) instanceof AdmissionResult.Admitted a)) {
            throw new IllegalStateException("fixture pod " + pod.ref() + " was not admitted");
        }
        return a.state();
    }

    static NrtReport report(NodeAllocator allocator, NodeState state, SharedPoolRequests shared) {
        return new NrtReport("worker-1", Optional.of("6f1c2d3e-0000-4000-8000-000000000001"), allocator, state, shared);
    }
}
