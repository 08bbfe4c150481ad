package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.TopologyInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The answers for states the engine built: which fields are filled, with exactly which CPUs and memory. */
class PodResourcesAnswersTest {

    private static final long GI = 1L << 30;

    @Test
    void podScopeHybridPodReportsItsBubbleAtPodLevelAndOnlyExclusiveSlicesPerContainer() {
        // Exclusive containers get their own slices of the pod's CPUs and memory; b runs on the pod shared pool.
        var scenario =
                EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.POD, true), EngineStates.hybrid());
        PodAssignment held = scenario.snapshot().state().pod("uid-hybrid").orElseThrow();
        CpuSet bubble = held.bubble();
        CpuSet a = held.container("a").orElseThrow().cpus();
        CpuSet m = held.container("m").orElseThrow().cpus();
        int node = EngineStates.INTEL.numaNodesOf(bubble).first();
        assertThat(bubble.size()).isEqualTo(8);
        assertThat(EngineStates.INTEL.numaNodesOf(bubble).size()).isEqualTo(1);
        assertThat(a.size()).isEqualTo(1);
        assertThat(m.size()).isEqualTo(6);
        assertThat(a.intersects(m)).isFalse();

        ListPodResourcesResponse list = PodResourcesAnswers.list(scenario.snapshot(), DeviceAssignments.NONE);

        PodResources expected = PodResources.newBuilder()
                .setName("hybrid")
                .setNamespace("default")
                .addAllCpuIds(ids(bubble))
                .addMemory(memory("memory", 16 * GI, node))
                .addContainers(ContainerResources.newBuilder()
                        .setName("a")
                        .addAllCpuIds(ids(a))
                        .addMemory(memory("memory", GI, node)))
                .addContainers(ContainerResources.newBuilder().setName("b"))
                .addContainers(ContainerResources.newBuilder()
                        .setName("m")
                        .addAllCpuIds(ids(m))
                        .addMemory(memory("memory", 8 * GI, node)))
                .build();
        assertThat(list.getPodResourcesList()).containsExactly(expected);
        assertThat(bubble.difference(a).difference(m))
                .as("consumers derive the pod shared pool as pod ids minus container ids")
                .isEqualTo(held.podSharedPool());
    }

    @Test
    void containerScopeReportsExclusiveCpusAndMemoryOfGuaranteedIntegralContainersOnly() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, true), EngineStates.perContainer());
        PodAssignment held = scenario.snapshot().state().pod("uid-classic").orElseThrow();
        CpuSet whole = held.container("whole").orElseThrow().cpus();
        assertThat(whole.size()).isEqualTo(2);
        int node = EngineStates.INTEL.numaNodesOf(whole).first();
        int halfNode = held.container("half").orElseThrow().memoryNodes().first();

        PodResources answer = PodResourcesAnswers.list(scenario.snapshot(), DeviceAssignments.NONE)
                .getPodResources(0);

        assertThat(answer)
                .isEqualTo(PodResources.newBuilder()
                        .setName("classic")
                        .setNamespace("default")
                        .addContainers(ContainerResources.newBuilder()
                                .setName("whole")
                                .addAllCpuIds(ids(whole))
                                .addMemory(memory("memory", 2 * GI, node)))
                        .addContainers(ContainerResources.newBuilder()
                                .setName("half")
                                .addMemory(memory("memory", GI, halfNode)))
                        .build());
    }

    @Test
    void sharedAndUnassignedPodsAreListedWithTheirContainersAndNothingElse() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort());
        ListedPod pending = new ListedPod(new PodRef("uid-pending", "batch", "pending"), List.of("main", "helper"));
        PodResourcesSnapshot snapshot = new PodResourcesSnapshot(
                scenario.snapshot().state(),
                List.of(scenario.snapshot().pods().getFirst(), pending),
                scenario.snapshot().allocatable());

        ListPodResourcesResponse list = PodResourcesAnswers.list(snapshot, DeviceAssignments.NONE);

        assertThat(list.getPodResourcesList())
                .containsExactly(
                        PodResources.newBuilder()
                                .setName("besteffort")
                                .setNamespace("default")
                                .addContainers(ContainerResources.newBuilder().setName("web"))
                                .build(),
                        PodResources.newBuilder()
                                .setName("pending")
                                .setNamespace("batch")
                                .addContainers(ContainerResources.newBuilder().setName("main"))
                                .addContainers(ContainerResources.newBuilder().setName("helper"))
                                .build());
    }

    @Test
    void listedContainersAreSidecarsThenAppContainersWithoutInitOrEphemeral() {
        assertThat(ListedPod.of(EngineStates.hybrid()).containers()).containsExactly("a", "b", "m");
        assertThat(ListedPod.of(EngineStates.perContainer()).containers()).containsExactly("whole", "half");
    }

    @Test
    void findMatchesNamespaceAndNameTogether() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort());
        assertThat(PodResourcesAnswers.find(scenario.snapshot(), "default", "besteffort"))
                .hasValueSatisfying(p -> assertThat(p.ref().uid()).isEqualTo("uid-besteffort"));
        assertThat(PodResourcesAnswers.find(scenario.snapshot(), "other", "besteffort"))
                .isEmpty();
        assertThat(PodResourcesAnswers.find(scenario.snapshot(), "default", "absent"))
                .isEmpty();
    }

    @Test
    void kubeletDevicesAreMergedIntoTheMatchingContainerOnly() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.perContainer());
        ContainerDevices gpu = ContainerDevices.newBuilder()
                .setResourceName("example.com/gpu")
                .addDeviceIds("gpu-1")
                .setTopology(
                        TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(1)))
                .build();
        DeviceAssignments devices = new DeviceAssignments(Map.of(
                new ContainerKey("default", "classic", "half"), new DeviceAssignments.Assigned(List.of(gpu), List.of()),
                new ContainerKey("other", "classic", "whole"),
                        new DeviceAssignments.Assigned(List.of(gpu), List.of())));

        PodResources answer =
                PodResourcesAnswers.list(scenario.snapshot(), devices).getPodResources(0);

        assertThat(answer.getContainers(0).getName()).isEqualTo("whole");
        assertThat(answer.getContainers(0).getDevicesList()).isEmpty();
        assertThat(answer.getContainers(1).getName()).isEqualTo("half");
        assertThat(answer.getContainers(1).getDevicesList()).containsExactly(gpu);
    }

    @Test
    void allocatableIsOnlineMinusReservedCpusAndPerNodeMemoryByType() {
        var scenario =
                EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.POD, true), EngineStates.hybrid());

        AllocatableResourcesResponse answer = PodResourcesAnswers.allocatable(scenario.snapshot(), List.of());

        assertThat(answer.getCpuIdsList())
                .as("allocatable is capacity: the hybrid pod's CPUs are still listed")
                .isEqualTo(ids(CpuSet.parse("1-63,65-127")));
        // 192Gi per node: 1Gi reserved, 1Gi of 2Mi pages and 8Gi of 1Gi pages are not regular memory.
        assertThat(answer.getMemoryList())
                .containsExactly(
                        memory("memory", 182 * GI, 0),
                        memory("hugepages-2Mi", GI, 0),
                        memory("hugepages-1Gi", 8 * GI, 0),
                        memory("memory", 182 * GI, 1),
                        memory("hugepages-2Mi", GI, 1),
                        memory("hugepages-1Gi", 8 * GI, 1));
        assertThat(MemoryQuantity.format(answer.getMemory(0).getSize())).isEqualTo("182Gi");
    }

    @Test
    void allocatableIsEmptyWithoutStaticPolicies() {
        var scenario = EngineStates.admit(NodeConfig.none(), EngineStates.bestEffort());
        ContainerDevices nic = ContainerDevices.newBuilder()
                .setResourceName("example.com/nic")
                .addDeviceIds("nic-0")
                .build();

        AllocatableResourcesResponse answer = PodResourcesAnswers.allocatable(scenario.snapshot(), List.of(nic));

        assertThat(answer)
                .isEqualTo(AllocatableResourcesResponse.newBuilder()
                        .addDevices(nic)
                        .build());
    }

    static List<Long> ids(CpuSet cpus) {
        return cpus.stream().mapToObj(i -> (long) i).toList();
    }

    static ContainerMemory memory(String type, long bytes, int... nodes) {
        TopologyInfo.Builder topology = TopologyInfo.newBuilder();
        for (int n : nodes) {
            topology.addNodes(NUMANode.newBuilder().setID(n));
        }
        return ContainerMemory.newBuilder()
                .setMemoryType(type)
                .setSize(bytes)
                .setTopology(topology)
                .build();
    }
}
