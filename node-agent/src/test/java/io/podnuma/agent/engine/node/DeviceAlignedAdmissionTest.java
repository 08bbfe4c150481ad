package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.device.Device;
import io.podnuma.agent.engine.device.PodDevices;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Devices as a hint provider (issue "Beyond the kubelet", device-aligned CPUs): a pod holding a device the kubelet put
 * on NUMA node 1 gets its exclusive CPUs and memory there, on the 2-socket fixture (node 0: CPUs 0-31 and 64-95).
 */
class DeviceAlignedAdmissionTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);
    private static final String ACCEL = "example.com/accel";
    private static final Device ON_1 = Device.of(ACCEL, "accel-1", 1);
    private static final Device ON_1_TOO = Device.of(ACCEL, "accel-2", 1);
    private static final List<Device> NODE = List.of(ON_1, ON_1_TOO);

    private static NodeAllocator allocator(TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        return NodeAllocator.create(
                INTEL, TestConfigs.withStaticMemory(TestConfigs.staticCpu("0,64", policy, scope), 2, "1Gi"));
    }

    private static PodDevices holding(String container, Device... devices) {
        return new PodDevices(Map.of(container, List.of(devices)), NODE);
    }

    private static PodAssignment admitted(AdmissionResult r) {
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return ((AdmissionResult.Admitted) r).pod();
    }

    private static List<Integer> nodesOf(CpuSet cpus) {
        return INTEL.numaNodesOf(cpus).stream().boxed().toList();
    }

    @Test
    void aContainerHoldingADeviceOnNode1GetsItsCpusAndMemoryThereWhereWithoutItItWouldGetNode0() {
        for (NodeConfig.TopologyScope scope : NodeConfig.TopologyScope.values()) {
            NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, scope);
            Pod p = pod("infer-" + scope).app("m", "4", "2Gi").build();

            PodAssignment with = admitted(a.admit(a.initialState(), p, holding("m", ON_1)));
            PodAssignment without = admitted(a.admit(a.initialState(), p));

            var m = with.container("m").orElseThrow();
            assertThat(nodesOf(m.cpus())).as("%s: CPUs with the device", scope).containsExactly(1);
            assertThat(m.memoryNodes().nodes())
                    .as("%s: memory with the device", scope)
                    .containsExactly(1);
            assertThat(nodesOf(without.container("m").orElseThrow().cpus()))
                    .as("%s: the same pod without the device", scope)
                    .containsExactly(0);
        }
    }

    @Test
    void aPodBudgetFollowsTheDeviceOfAnyOfItsContainers() {
        NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD);
        Pod p = pod("budgeted")
                .budget("6", "2Gi")
                .sidecar("proxy", null, null)
                .app("m", "4", null)
                .build();

        PodAssignment with = admitted(a.admit(a.initialState(), p, holding("proxy", ON_1)));

        assertThat(nodesOf(with.bubble())).containsExactly(1);
        assertThat(nodesOf(with.container("m").orElseThrow().cpus())).containsExactly(1);
    }

    @Test
    void underContainerScopeOnlyTheContainerHoldingTheDeviceFollowsIt() {
        NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.CONTAINER);
        Pod p = pod("mixed").app("feeder", "2", "1Gi").app("m", "4", "1Gi").build();

        PodAssignment with = admitted(a.admit(a.initialState(), p, holding("m", ON_1)));

        assertThat(nodesOf(with.container("m").orElseThrow().cpus())).containsExactly(1);
        assertThat(nodesOf(with.container("feeder").orElseThrow().cpus())).containsExactly(0);
    }

    @Test
    void whenTheDevicesNodeHasNoRoomLeftStrictPoliciesRefuseNamingTheDeviceAndBestEffortAdmits() {
        for (TopologyPolicyName policy : List.of(TopologyPolicyName.SINGLE_NUMA_NODE, TopologyPolicyName.RESTRICTED)) {
            NodeAllocator a = allocator(policy, NodeConfig.TopologyScope.CONTAINER);
            NodeState state = ((AdmissionResult.Admitted) a.admit(
                            a.initialState(),
                            pod("filler").app("f", "62", "1Gi").build(),
                            holding("f", ON_1)))
                    .state();
            Pod late = pod("late").app("m", "4", "1Gi").build();

            AdmissionResult refused = a.admit(state, late, holding("m", ON_1_TOO));
            assertThat(refused).as("%s", policy).isInstanceOf(AdmissionResult.Rejected.class);
            AdmissionResult.Rejected r = (AdmissionResult.Rejected) refused;
            assertThat(r.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
            assertThat(r.message()).contains("(cpu=4, memory=1Gi, " + ACCEL + "=1)");
            assertThat(nodesOf(admitted(a.admit(state, late))
                            .container("m")
                            .orElseThrow()
                            .cpus()))
                    .as("%s: without the device it fits on node 0", policy)
                    .containsExactly(0);
        }
        NodeAllocator a = allocator(TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.CONTAINER);
        NodeState state = ((AdmissionResult.Admitted) a.admit(
                        a.initialState(), pod("filler").app("f", "62", "1Gi").build(), holding("f", ON_1)))
                .state();
        assertThat(admitted(a.admit(state, pod("late").app("m", "4", "1Gi").build(), holding("m", ON_1_TOO)))
                        .container("m")
                        .orElseThrow()
                        .cpus()
                        .size())
                .isEqualTo(4);
    }

    @Test
    void aDeviceWithoutTopologyLeavesThePlacementAsWithoutIt() {
        NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.CONTAINER);
        Device bare = Device.of("example.com/nic", "nic-0");
        PodAssignment with = admitted(a.admit(
                a.initialState(),
                pod("nic").app("m", "4", "1Gi").build(),
                new PodDevices(Map.of("m", List.of(bare)), List.of(bare))));
        assertThat(nodesOf(with.container("m").orElseThrow().cpus())).containsExactly(0);
    }
}
