package io.podnuma.agent.checkpoint;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.node.TestConfigs;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.TestPods;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyPolicyName;

/** A fixed machine, configuration and node state with a pod-level bubble and a per-container pod. */
final class CheckpointFixtures {

    static final CpuTopology TOPOLOGY = TestTopologies.DUAL_SOCKET_HT;
    static final TopologyFingerprint FINGERPRINT = TopologyFingerprint.of(TOPOLOGY);
    static final String CONFIG_HASH = "sha256:" + "c".repeat(64);
    static final NodeConfig CONFIG = TestConfigs.withStaticMemory(
            TestConfigs.staticCpu("0,6", TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD), 2, "1Gi");
    static final NodeAllocator ALLOCATOR = NodeAllocator.create(TOPOLOGY, CONFIG);

    private CheckpointFixtures() {}

    /** Pod {@code bubble} (pod budget 4 CPUs: app 2 exclusive + a shared sidecar) and pod {@code plain} (2 CPUs). */
    static NodeState state() {
        NodeState s = ALLOCATOR.initialState();
        s = admit(
                s,
                TestPods.pod("bubble")
                        .budget("4", "1Gi")
                        .sidecar("log", "500m", "64Mi")
                        .app("main", "2", "512Mi")
                        .build());
        s = admit(s, TestPods.pod("plain").app("app", "2", "1Gi").build());
        return s;
    }

    static Checkpoint checkpoint() {
        return new Checkpoint(state(), FINGERPRINT, CONFIG_HASH);
    }

    private static NodeState admit(NodeState s, Pod pod) {
        if (ALLOCATOR.admit(s, pod) instanceof AdmissionResult.Admitted a) {
            return a.state();
        }
        throw new IllegalStateException("fixture pod " + pod + " was not admitted");
    }
}
