package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import org.junit.jupiter.api.Test;

/** Spec §3 and §4: container scope (with and without pod-level resources) and classic pods under pod scope. */
class PerContainerAllocationTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);

    private static NodeAllocator allocator(TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        return NodeAllocator.create(INTEL, TestConfigs.staticCpu("0,64", policy, scope));
    }

    private static AdmissionResult.Admitted admit(NodeAllocator a, NodeState s, Pod p) {
        AdmissionResult r = a.admit(s, p);
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return (AdmissionResult.Admitted) r;
    }

    private static ContainerAssignment c(AdmissionResult.Admitted a, String name) {
        return a.pod().container(name).orElseThrow();
    }

    @Test
    void containerScopeWithPodLevelResourcesPinsOnlyQualifyingContainers() {
        NodeAllocator a = allocator(TopologyPolicyName.RESTRICTED, NodeConfig.TopologyScope.CONTAINER);
        NodeState initial = a.initialState();
        Pod p = pod("mesh")
                .budget("6", "12Gi")
                .sidecar("proxy", null, null)
                .app("server", "4", "8Gi")
                .build();
        var admitted = admit(a, initial, p);
        assertThat(admitted.pod().placement()).isEqualTo(PodPlacement.CONTAINER);
        assertThat(admitted.pod().hasBubble()).isFalse();
        ContainerAssignment server = c(admitted, "server");
        assertThat(server.kind()).isEqualTo(AssignmentKind.EXCLUSIVE);
        assertThat(server.cpus().size()).isEqualTo(4);
        assertThat(INTEL.numaNodesOf(server.cpus()).size()).isEqualTo(1);
        assertThat(c(admitted, "proxy").kind()).isEqualTo(AssignmentKind.NODE_SHARED);
        assertThat(admitted.state().sharedPool()).isEqualTo(initial.sharedPool().difference(server.cpus()));
        // Before KEP-5526 the sidecar without resources made the whole pod non-Guaranteed: nothing pinned.
        NodeAllocator classic = NodeAllocator.create(
                INTEL,
                TestConfigs.withoutPodLevel(TestConfigs.staticCpu(
                        "0,64", TopologyPolicyName.RESTRICTED, NodeConfig.TopologyScope.CONTAINER)));
        assertThat(c(admit(classic, classic.initialState(), p), "server").kind())
                .isEqualTo(AssignmentKind.NODE_SHARED);
    }

    @Test
    void classicGuaranteedPodInContainerScopeReusesInitCpusButNotSidecarCpus() {
        NodeAllocator a = allocator(TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.CONTAINER);
        Pod p = pod("classic")
                .init("setup", "2", "1Gi")
                .sidecar("log", "2", "1Gi")
                .init("warm", "2", "1Gi")
                .app("app", "4", "1Gi")
                .app("metrics", "500m", "128Mi")
                .build();
        var admitted = admit(a, a.initialState(), p);
        CpuSet setup = c(admitted, "setup").cpus();
        CpuSet log = c(admitted, "log").cpus();
        CpuSet warm = c(admitted, "warm").cpus();
        CpuSet app = c(admitted, "app").cpus();
        assertThat(setup.size()).isEqualTo(2);
        assertThat(warm.intersects(log)).as("never a running sidecar's CPUs").isFalse();
        assertThat(app.intersects(log)).isFalse();
        assertThat(c(admitted, "metrics").kind()).isEqualTo(AssignmentKind.NODE_SHARED);
        CpuSet held = log.union(app).union(setup).union(warm);
        assertThat(admitted.state().sharedPool()).isEqualTo(INTEL.onlineCpus().difference(held));
        assertThat(a.remove(admitted.state(), admitted.pod().ref().uid())).isEqualTo(a.initialState());
    }

    @Test
    void initCpusAreReusedWhenTheNodeHasNoOthers() {
        // 8 CPUs, 1 reserved: 7 assignable; init 4 + app 6 only fit if the app reuses the init CPUs.
        NodeAllocator a = NodeAllocator.create(
                io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_NO_HT,
                TestConfigs.staticCpu("0", TopologyPolicyName.NONE, NodeConfig.TopologyScope.CONTAINER));
        var admitted = admit(
                a,
                a.initialState(),
                pod("reuse").init("i", "4", "1Gi").app("x", "6", "1Gi").build());
        assertThat(c(admitted, "i").cpus().isSubsetOf(c(admitted, "x").cpus())).isTrue();
        assertThat(admitted.state().sharedPool().size())
                .as("reserved CPU 0 and the one CPU nobody took")
                .isEqualTo(2);
        // A sidecar's CPUs are never reused: sidecar 4 + app 6 do not fit.
        var r = a.admit(
                a.initialState(),
                pod("noreuse").sidecar("s", "4", "1Gi").app("x", "6", "1Gi").build());
        assertThat(r).isInstanceOf(AdmissionResult.Rejected.class);
        assertThat(((AdmissionResult.Rejected) r).message()).contains("requested 6 exclusive CPUs, 3 available");
    }

    @Test
    void classicPodScopeAlignsTheWholePodOnOneNode() {
        NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD);
        Pod p = pod("aligned")
                .sidecar("s", "2", "1Gi")
                .init("i", "10", "1Gi")
                .app("x", "20", "1Gi")
                .app("y", "20", "1Gi")
                .build();
        var admitted = admit(a, a.initialState(), p);
        assertThat(admitted.pod().placement()).isEqualTo(PodPlacement.POD);
        CpuSet all = admitted.pod().exclusiveCpus();
        assertThat(all.size()).isEqualTo(42);
        assertThat(INTEL.numaNodesOf(all))
                .isEqualTo(CpuSet.of(admitted.pod().numaAffinity().toArray()));
        assertThat(admitted.pod().numaAffinity().count()).isEqualTo(1);
        // max(init 10 + sidecar 2, apps 40 + sidecar 2) = 42 fits one node; 65 fits none (64 CPUs each).
        Pod tooBig = pod("big").app("x", "65", "1Gi").build();
        var r = (AdmissionResult.Rejected) a.admit(a.initialState(), tooBig);
        assertThat(r.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
    }

    @Test
    void containerScopeRejectsAContainerThatCannotAlignAndLeavesTheNodeUnchanged() {
        NodeAllocator a = allocator(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.CONTAINER);
        NodeState s = admit(
                        a, a.initialState(), pod("first").app("x", "60", "1Gi").build())
                .state();
        Pod p = pod("second").app("ok", "2", "1Gi").app("wide", "65", "1Gi").build();
        AdmissionResult r = a.admit(s, p);
        assertThat(r).isInstanceOf(AdmissionResult.Rejected.class);
        var rejected = (AdmissionResult.Rejected) r;
        assertThat(rejected.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
        assertThat(rejected.message()).contains("app container wide").contains("cpu=65");
    }

    @Test
    void notEnoughCpusIsAnUnexpectedAdmissionErrorWithTheNumbers() {
        NodeAllocator a = allocator(TopologyPolicyName.NONE, NodeConfig.TopologyScope.CONTAINER);
        var r = (AdmissionResult.Rejected)
                a.admit(a.initialState(), pod("p").app("x", "127", "1Gi").build());
        assertThat(r.reason()).isEqualTo(RejectionReason.UNEXPECTED_ADMISSION_ERROR);
        assertThat(r.message()).contains("requested 127 exclusive CPUs, 126 available in the node");
    }

    @Test
    void staticMemoryPinsGuaranteedContainersAndReusesInitMemory() {
        NodeAllocator a = NodeAllocator.create(
                INTEL,
                TestConfigs.withStaticMemory(
                        TestConfigs.staticCpu(
                                "0,64", TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.CONTAINER),
                        2,
                        "1Gi"));
        Pod p = pod("mem")
                .init("i", "1", "4Gi")
                .app("x", "2", "6Gi")
                .app("frac", "500m", "1Gi")
                .build();
        var admitted = admit(a, a.initialState(), p);
        ContainerAssignment x = c(admitted, "x");
        assertThat(x.memory()).singleElement().satisfies(b -> {
            assertThat(b.size()).isEqualTo(MemoryQuantity.parseBytes("6Gi"));
            assertThat(b.chargedTotal())
                    .as("4Gi reused from the init container")
                    .isEqualTo(MemoryQuantity.parseBytes("2Gi"));
        });
        assertThat(x.memoryNodes())
                .isEqualTo(NumaMask.of(INTEL.numaNodesOf(x.cpus()).toArray()));
        ContainerAssignment frac = c(admitted, "frac");
        assertThat(frac.kind()).isEqualTo(AssignmentKind.NODE_SHARED);
        assertThat(frac.memory())
                .as("fractional CPU still gets exclusive memory")
                .hasSize(1);
        var mem = a.memoryState(admitted.state());
        long free0 = mem.free(NumaMask.of(0), MemoryResource.MEMORY) + mem.free(NumaMask.of(1), MemoryResource.MEMORY);
        var memBefore = a.memoryState(a.initialState());
        long before = memBefore.free(NumaMask.of(0), MemoryResource.MEMORY)
                + memBefore.free(NumaMask.of(1), MemoryResource.MEMORY);
        assertThat(before - free0).isEqualTo(MemoryQuantity.parseBytes("7Gi"));
        assertThat(a.remove(admitted.state(), admitted.pod().ref().uid())).isEqualTo(a.initialState());
    }

    @Test
    void removingAClassicContainerReturnsItsCpusAtOnce() {
        NodeAllocator a = allocator(TopologyPolicyName.NONE, NodeConfig.TopologyScope.CONTAINER);
        var admitted = admit(
                a,
                a.initialState(),
                pod("p").app("x", "2", "1Gi").app("y", "2", "1Gi").build());
        NodeState s = a.removeContainer(admitted.state(), admitted.pod().ref().uid(), "x");
        assertThat(s.sharedPool())
                .isEqualTo(admitted.state().sharedPool().union(c(admitted, "x").cpus()));
        PodAssignment rest = s.pod(admitted.pod().ref().uid()).orElseThrow();
        assertThat(rest.containers()).extracting(ContainerAssignment::name).containsExactly("y");
        assertThat(a.removeContainer(s, admitted.pod().ref().uid(), "y")).isEqualTo(a.initialState());
    }

    @Test
    void withoutTheStaticPolicyNothingIsPinned() {
        NodeAllocator a = NodeAllocator.create(INTEL, NodeConfig.none());
        var admitted = admit(
                a,
                a.initialState(),
                pod("p").budget("4", "4Gi").app("x", "2", "1Gi").build());
        assertThat(admitted.pod().containers())
                .allSatisfy(c -> assertThat(c.kind()).isEqualTo(AssignmentKind.NODE_SHARED));
        assertThat(admitted.state().sharedPool()).isEqualTo(INTEL.onlineCpus());
        assertThat(a.reservedCpus().isEmpty()).isTrue();
    }
}
