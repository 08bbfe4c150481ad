package io.podnuma.agent.report;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.node.TestConfigs;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.pod.TestPods;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A two-socket machine with SMT (12 CPUs, NUMA = socket, 16 GiB per node, 2 MiB and 1 GiB huge pages on node 0, SLIT
 * distances 10/21), pod scope with single-numa-node, reserved CPUs 0 and 6, and pods with real UIDs.
 */
final class ReportFixtures {

    static final String BUBBLE_UID = "0b7c6d2e-4f1a-4c3b-9d8e-7f6a5b4c3d2e";
    static final String PLAIN_UID = "1c8d7e3f-5a2b-4d4c-8e9f-8a7b6c5d4e3f";
    static final String CONFIG_HASH = "sha256:" + "a".repeat(64);
    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    static final CpuTopology TOPOLOGY = withMemoryDetails(TestTopologies.DUAL_SOCKET_HT);

    static final NodeConfig CONFIG = TestConfigs.withStaticMemory(
            TestConfigs.staticCpu("0,6", TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD), 2, "1Gi");

    static final NodeAllocator ALLOCATOR = NodeAllocator.create(TOPOLOGY, CONFIG);

    private ReportFixtures() {}

    private static CpuTopology withMemoryDetails(CpuTopology t) {
        List<NumaNode> nodes = List.of(
                new NumaNode(0, t.cpusInNumaNode(0), 16L << 30, Map.of(2048L, 512L, 1048576L, 2L), List.of(10, 21)),
                new NumaNode(1, t.cpusInNumaNode(1), 16L << 30, Map.of(), List.of(21, 10)));
        return new CpuTopology(t.cpus(), t.offlineCpus(), nodes);
    }

    static NodeState empty() {
        return ALLOCATOR.initialState();
    }

    /** Pod {@code bubble} (budget 4 CPUs: app 2 exclusive, a shared sidecar); with {@code plain}, a 2-CPU pod too. */
    static NodeState state(boolean withPlain) {
        NodeState s = admit(
                empty(),
                TestPods.pod("bubble")
                        .budget("4", "1Gi")
                        .sidecar("log", "500m", "64Mi")
                        .app("main", "2", "512Mi")
                        .build(),
                BUBBLE_UID);
        if (withPlain) {
            s = admit(s, TestPods.pod("plain").app("app", "2", "1Gi").build(), PLAIN_UID);
        }
        return s;
    }

    static NodeReport report(String nodeName, NodeState state) {
        return new NodeReport(
                nodeName,
                TOPOLOGY,
                state,
                Optional.of("tenant-a"),
                CONFIG_HASH,
                CpuSet.parse("0,6"),
                ConditionBook.empty()
                        .with("Ready", ConditionBook.TRUE, "Synced", "pods synced and pinned", T0)
                        .conditions(),
                Optional.of(new AgentError(T0.toString(), "CgroupWriteFailed", "cpuset.cpus of pod x: EBUSY")));
    }

    /** Admits with the test-pod builder, then gives the pod a real UID (the API server checks the format). */
    private static NodeState admit(NodeState s, Pod pod, String uid) {
        if (!(ALLOCATOR.admit(s, pod) instanceof AdmissionResult.Admitted a)) {
            throw new IllegalStateException("fixture pod " + pod + " was not admitted");
        }
        NodeState admitted = a.state();
        PodAssignment p = admitted.pod(pod.ref().uid()).orElseThrow();
        PodAssignment renamed = new PodAssignment(
                new PodRef(uid, "team-a", pod.ref().name()),
                p.qos(),
                p.placement(),
                p.numaAffinity(),
                p.bubble(),
                p.podSharedPool(),
                p.podMemory(),
                p.containers());
        return admitted.withoutPod(admitted.sharedPool(), pod.ref().uid()).withPod(admitted.sharedPool(), renamed);
    }
}
