package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
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

/** Spec §2: pod scope with a pod-level budget (the hybrid model), on the 2-socket Intel fixture. */
class PodLevelAllocationTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);
    private static final NodeConfig POD_SCOPE =
            TestConfigs.staticCpu("0,64", TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD);

    private final NodeAllocator allocator = NodeAllocator.create(INTEL, POD_SCOPE);

    private AdmissionResult.Admitted admit(NodeAllocator a, NodeState s, Pod p) {
        AdmissionResult r = a.admit(s, p);
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return (AdmissionResult.Admitted) r;
    }

    private static AdmissionResult.Rejected reject(NodeAllocator a, NodeState s, Pod p) {
        AdmissionResult r = a.admit(s, p);
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Rejected.class);
        AdmissionResult.Rejected rejected = (AdmissionResult.Rejected) r;
        return rejected;
    }

    private static Pod workedExample(String appCpu) {
        return pod("worked")
                .budget("8", "16Gi")
                .sidecar("a", "1", "1Gi")
                .sidecar("b", null, null)
                .init("i", null, null)
                .app("m", appCpu, "8Gi")
                .build();
    }

    @Test
    void workedExampleOfTheSpec() {
        NodeState initial = allocator.initialState();
        var admitted = admit(allocator, initial, workedExample("6"));
        PodAssignment p = admitted.pod();
        ContainerAssignment a = p.container("a").orElseThrow();
        ContainerAssignment b = p.container("b").orElseThrow();
        ContainerAssignment i = p.container("i").orElseThrow();
        ContainerAssignment m = p.container("m").orElseThrow();

        assertThat(p.placement()).isEqualTo(PodPlacement.POD_LEVEL);
        assertThat(p.bubble().size()).isEqualTo(8);
        assertThat(INTEL.numaNodesOf(p.bubble()).size())
                .as("bubble on one NUMA node")
                .isEqualTo(1);
        assertThat(a.kind()).isEqualTo(AssignmentKind.EXCLUSIVE);
        assertThat(a.cpus().size()).isEqualTo(1);
        assertThat(i.kind()).isEqualTo(AssignmentKind.POD_SHARED);
        assertThat(i.cpus()).as("I may use bubble - A").isEqualTo(p.bubble().difference(a.cpus()));
        assertThat(i.cpus().size()).isEqualTo(7);
        assertThat(m.kind()).isEqualTo(AssignmentKind.EXCLUSIVE);
        assertThat(m.cpus().size()).isEqualTo(6);
        assertThat(m.cpus().intersects(a.cpus())).isFalse();
        assertThat(p.podSharedPool()).isEqualTo(p.bubble().difference(a.cpus()).difference(m.cpus()));
        assertThat(p.podSharedPool().size()).isEqualTo(1);
        assertThat(b.kind()).isEqualTo(AssignmentKind.POD_SHARED);
        assertThat(b.cpus()).isEqualTo(p.podSharedPool());
        // The bubble left the node pool; reserved CPUs stayed in it.
        NodeState s = admitted.state();
        assertThat(s.sharedPool()).isEqualTo(INTEL.onlineCpus().difference(p.bubble()));
        assertThat(s.sharedPool().isSubsetOf(initial.sharedPool())).isTrue();
    }

    @Test
    void workedExampleWithSevenForTheAppIsRejectedForAnEmptyPool() {
        var r = reject(allocator, allocator.initialState(), workedExample("7"));
        assertThat(r.reason()).isEqualTo(RejectionReason.EMPTY_POD_SHARED_POOL_ERROR);
        assertThat(r.message())
                .contains("pod budget of 8 CPUs")
                .contains("1 for sidecars, 7 for app containers")
                .contains("[b]");
    }

    @Test
    void theRemainderStaysWithThePodWhenNobodyUsesThePool() {
        Pod p = pod("rest").budget("4", "4Gi").app("m", "2", "1Gi").build();
        var admitted = admit(allocator, allocator.initialState(), p);
        assertThat(admitted.pod().podSharedPool().size()).isEqualTo(2);
        assertThat(admitted.state().sharedPool().size()).isEqualTo(INTEL.numCpus() - 4);
    }

    @Test
    void appSlicesBeyondTheBudgetAreRejectedWithBothNumbers() {
        Pod p = pod("big")
                .budget("4", "4Gi")
                .sidecar("s", "1", "1Gi")
                .app("m", "4", "1Gi")
                .build();
        var r = reject(allocator, allocator.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.UNEXPECTED_ADMISSION_ERROR);
        assertThat(r.message()).contains("requests 4 exclusive CPUs, but only 3 of the pod budget of 4 remain");
    }

    @Test
    void aStandardInitContainerMayNotAskMoreThanTheBudgetLeftAfterSidecars() {
        Pod p = pod("init")
                .budget("4", "4Gi")
                .sidecar("s", "2", "1Gi")
                .init("i", "3", "1Gi")
                .app("m", null, null)
                .build();
        var r = reject(allocator, allocator.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.UNEXPECTED_ADMISSION_ERROR);
        assertThat(r.message()).contains("init container i").contains("only 2 of the pod budget of 4");
    }

    @Test
    void anExclusiveInitContainerReusesCpusTheAppGetsLater() {
        Pod p = pod("reuse")
                .budget("4", "4Gi")
                .init("i", "4", "1Gi")
                .app("m", "3", "1Gi")
                .app("x", null, null)
                .build();
        var admitted = admit(allocator, allocator.initialState(), p);
        assertThat(admitted.pod().container("i").orElseThrow().cpus())
                .isEqualTo(admitted.pod().bubble());
        assertThat(admitted.pod()
                        .container("m")
                        .orElseThrow()
                        .cpus()
                        .isSubsetOf(admitted.pod().bubble()))
                .isTrue();
    }

    @Test
    void aSharedInitContainerAfterSidecarsTookTheWholeBudgetIsRejected() {
        Pod p = pod("full")
                .budget("2", "4Gi")
                .sidecar("s", "2", "1Gi")
                .init("i", null, null)
                .app("m", null, null)
                .build();
        var r = reject(allocator, allocator.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.EMPTY_POD_SHARED_POOL_ERROR);
        assertThat(r.message()).contains("init container i").contains("whole pod budget of 2 CPUs");
    }

    @Test
    void aNonQualifyingSidecarWaitsForTheFinalPool() {
        Pod p = pod("late")
                .budget("4", "4Gi")
                .sidecar("proxy", null, null)
                .app("m", "3", "1Gi")
                .build();
        var admitted = admit(allocator, allocator.initialState(), p);
        ContainerAssignment proxy = admitted.pod().container("proxy").orElseThrow();
        assertThat(proxy.kind()).isEqualTo(AssignmentKind.POD_SHARED);
        assertThat(proxy.cpus().size()).isEqualTo(1);
    }

    @Test
    void fractionalContainersAndFractionalBudgets() {
        // A container with fractional CPU never gets a slice; it shares the pool.
        Pod p = pod("frac").budget("4", "4Gi").app("m", "1500m", "1Gi").build();
        var admitted = admit(allocator, allocator.initialState(), p);
        assertThat(admitted.pod().container("m").orElseThrow().kind()).isEqualTo(AssignmentKind.POD_SHARED);
        // A fractional pod budget: no bubble at all, everything on the node pool.
        Pod q = pod("fracpod").budget("3500m", "4Gi").app("m", "2", "1Gi").build();
        var admittedQ = admit(allocator, admitted.state(), q);
        assertThat(admittedQ.pod().hasBubble()).isFalse();
        assertThat(admittedQ.pod().container("m").orElseThrow().kind()).isEqualTo(AssignmentKind.NODE_SHARED);
        assertThat(admittedQ.state().sharedPool()).isEqualTo(admitted.state().sharedPool());
    }

    @Test
    void burstablePodBudgetGivesNoExclusivity() {
        Pod p = pod("burst")
                .budget(new io.podnuma.agent.engine.pod.Resources(
                        io.podnuma.agent.engine.pod.TestPods.list("2", "2Gi"),
                        io.podnuma.agent.engine.pod.TestPods.list("4", "2Gi")))
                .app("m", "2", "1Gi")
                .build();
        var admitted = admit(allocator, allocator.initialState(), p);
        assertThat(admitted.pod().qos()).isEqualTo(io.podnuma.agent.engine.pod.PodQos.BURSTABLE);
        assertThat(admitted.pod().container("m").orElseThrow().kind()).isEqualTo(AssignmentKind.NODE_SHARED);
    }

    @Test
    void ephemeralContainersRunOnTheNodePool() {
        Pod p = pod("debug")
                .budget("2", "2Gi")
                .app("m", null, null)
                .ephemeral("dbg")
                .build();
        var admitted = admit(allocator, allocator.initialState(), p);
        ContainerAssignment dbg = admitted.pod().container("dbg").orElseThrow();
        assertThat(dbg.kind()).isEqualTo(AssignmentKind.NODE_SHARED);
        assertThat(admitted.state().cpusOf(admitted.pod(), dbg))
                .isEqualTo(admitted.state().sharedPool());
    }

    @Test
    void aBudgetLargerThanOneNumaNodeIsATopologyAffinityErrorUnderSingleNumaNode() {
        Pod p = pod("huge").budget("70", "4Gi").app("m", null, null).build();
        var r = reject(allocator, allocator.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
        assertThat(r.message()).contains("cpu=70");
    }

    @Test
    void fullPcpusOnlyRejectsAnOddSliceWithSmtAlignmentError() {
        NodeAllocator a = NodeAllocator.create(
                INTEL,
                TestConfigs.withOptions(POD_SCOPE, new StaticPolicyOptions(true, false, false, false, false, false)));
        Pod p = pod("smt")
                .budget("4", "4Gi")
                .app("m", "3", "1Gi")
                .app("x", null, null)
                .build();
        var r = reject(a, a.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
        assertThat(r.message()).contains("requested 3 exclusive CPUs").contains("cpus per core = 2");
        Pod odd = pod("oddbudget").budget("3", "4Gi").app("m", null, null).build();
        assertThat(reject(a, a.initialState(), odd).reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
    }

    @Test
    void budgetsBeyondTheNodeAreUnexpectedAdmissionErrors() {
        NodeAllocator a = NodeAllocator.create(
                INTEL, TestConfigs.staticCpu("0,64", TopologyPolicyName.NONE, NodeConfig.TopologyScope.POD));
        Pod p = pod("toomuch").budget("200", "4Gi").app("m", null, null).build();
        var r = reject(a, a.initialState(), p);
        assertThat(r.reason()).isEqualTo(RejectionReason.UNEXPECTED_ADMISSION_ERROR);
        assertThat(r.message()).contains("requested 200 exclusive CPUs, 126 available");
    }

    @Test
    void memoryOfThePodIsPinnedToItsNumaNodeAndCarvedForQualifyingContainers() {
        NodeAllocator a = NodeAllocator.create(INTEL, TestConfigs.withStaticMemory(POD_SCOPE, 2, "1Gi"));
        var admitted = admit(a, a.initialState(), workedExample("6"));
        PodAssignment p = admitted.pod();
        NumaMask node = NumaMask.of(INTEL.numaNodesOf(p.bubble()).toArray());
        assertThat(p.podMemory()).hasSize(1);
        assertThat(p.podMemory().get(0).nodes()).isEqualTo(node);
        assertThat(p.podMemory().get(0).size()).isEqualTo(MemoryQuantity.parseBytes("16Gi"));
        for (ContainerAssignment c : p.containers()) {
            assertThat(c.memoryNodes()).as(c.name()).isEqualTo(node);
        }
        ContainerAssignment m = p.container("m").orElseThrow();
        assertThat(m.memory()).singleElement().satisfies(b -> {
            assertThat(b.resource()).isEqualTo(MemoryResource.MEMORY);
            assertThat(b.size()).isEqualTo(MemoryQuantity.parseBytes("8Gi"));
            assertThat(b.chargedTotal()).as("charged to the pod, not again").isZero();
        });
        assertThat(a.memoryState(admitted.state()).free(node, MemoryResource.MEMORY))
                .isEqualTo(MemoryQuantity.parseBytes("192Gi")
                        - MemoryQuantity.parseBytes("1Gi")
                        - MemoryQuantity.parseBytes("16Gi")
                        - hugepages(node.first()));
        Pod greedy = pod("greedy")
                .budget("8", "4Gi")
                .app("m", "2", "8Gi")
                .app("x", null, null)
                .build();
        var r = reject(a, admitted.state(), greedy);
        assertThat(r.reason()).isEqualTo(RejectionReason.UNEXPECTED_ADMISSION_ERROR);
        assertThat(r.message()).contains("memory=8Gi exclusively, but only 4Gi of the pod budget of 4Gi remain");
    }

    private static long hugepages(int node) {
        return INTEL.numaNode(node).orElseThrow().hugepageBytes();
    }

    @Test
    void theBubbleReturnsOnlyWithThePodsLastContainer() {
        NodeState initial = allocator.initialState();
        var admitted = admit(allocator, initial, workedExample("6"));
        String uid = admitted.pod().ref().uid();
        NodeState s = allocator.removeContainer(admitted.state(), uid, "m");
        PodAssignment p = s.pod(uid).orElseThrow();
        assertThat(p.podSharedPool().size())
                .as("a dead slice is not returned to the pod pool")
                .isEqualTo(1);
        assertThat(s.sharedPool()).isEqualTo(admitted.state().sharedPool());
        for (String c : new String[] {"a", "b", "i"}) {
            s = allocator.removeContainer(s, uid, c);
        }
        assertThat(s).isEqualTo(initial);
    }

    @Test
    void removeRestoresTheStateAndAdmitIsIdempotent() {
        NodeState initial = allocator.initialState();
        var admitted = admit(allocator, initial, workedExample("6"));
        assertThat(allocator.admit(admitted.state(), workedExample("6"))).isEqualTo(admitted);
        assertThat(allocator.remove(admitted.state(), admitted.pod().ref().uid()))
                .isEqualTo(initial);
        assertThat(allocator.remove(initial, "nobody")).isSameAs(initial);
    }

    @Test
    void withPodLevelResourcesDisabledTheBudgetIsIgnored() {
        NodeAllocator a = NodeAllocator.create(INTEL, TestConfigs.withoutPodLevel(POD_SCOPE));
        var admitted = admit(a, a.initialState(), workedExample("6"));
        assertThat(admitted.pod().placement()).isEqualTo(PodPlacement.POD);
        assertThat(admitted.pod().hasBubble()).isFalse();
        // Classic QoS: sidecar b and init i have no resources, so the pod is Burstable and nothing is pinned.
        assertThat(admitted.pod().containers())
                .allSatisfy(c -> assertThat(c.kind()).isEqualTo(AssignmentKind.NODE_SHARED));
        assertThat(admitted.state().sharedPool()).isEqualTo(CpuSet.range(0, 127));
    }

    @Test
    void hugepagesFollowTheSameArithmeticPerResource() {
        NodeAllocator a = NodeAllocator.create(INTEL, TestConfigs.withStaticMemory(POD_SCOPE, 2, "1Gi"));
        MemoryResource hp2m = MemoryResource.parse("hugepages-2Mi");
        Pod p = pod("huge")
                .budget("4", "4Gi")
                .budgetHugepages("2Mi", "512Mi")
                .app(
                        "m",
                        io.podnuma.agent.engine.pod.Resources.guaranteed(
                                io.podnuma.agent.engine.pod.TestPods.list("2", "1Gi")
                                        .with(hp2m, MemoryQuantity.parseBytes("256Mi"))))
                .app("x", null, null)
                .build();
        var admitted = admit(a, a.initialState(), p);
        NumaMask node = admitted.pod().numaAffinity();
        assertThat(admitted.pod().podMemory())
                .extracting(b -> b.resource())
                .containsExactly(MemoryResource.MEMORY, hp2m);
        assertThat(admitted.pod().container("m").orElseThrow().memory())
                .extracting(b -> b.resource().resourceName() + "=" + MemoryQuantity.format(b.size()))
                .containsExactly("memory=1Gi", "hugepages-2Mi=256Mi");
        assertThat(a.memoryState(admitted.state()).free(node, hp2m)).isEqualTo(MemoryQuantity.parseBytes("512Mi"));
        Pod tooMuch = pod("toomuch")
                .budget("4", "4Gi")
                .budgetHugepages("2Mi", "128Mi")
                .app(
                        "m",
                        io.podnuma.agent.engine.pod.Resources.guaranteed(
                                io.podnuma.agent.engine.pod.TestPods.list("2", "1Gi")
                                        .with(hp2m, MemoryQuantity.parseBytes("256Mi"))))
                .build();
        var r = reject(a, admitted.state(), tooMuch);
        assertThat(r.message())
                .contains("hugepages-2Mi=256Mi exclusively, but only 128Mi of the pod budget of 128Mi remain");
    }

    @Test
    void bestEffortLetsABudgetSpanNodesAndRestrictedDoesNot() {
        NodeAllocator bestEffort = NodeAllocator.create(
                INTEL, TestConfigs.staticCpu("0,64", TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.POD));
        var admitted = admit(
                bestEffort,
                bestEffort.initialState(),
                pod("wide")
                        .budget("70", "4Gi")
                        .app("m", "66", "1Gi")
                        .app("x", null, null)
                        .build());
        assertThat(admitted.pod().bubble().size()).isEqualTo(70);
        assertThat(INTEL.numaNodesOf(admitted.pod().bubble()).size()).isEqualTo(2);
        assertThat(admitted.pod().numaAffinity()).isEqualTo(NumaMask.of(0, 1));
        NodeAllocator restricted = NodeAllocator.create(
                INTEL, TestConfigs.staticCpu("0,64", TopologyPolicyName.RESTRICTED, NodeConfig.TopologyScope.POD));
        NodeState s = restricted.initialState();
        for (String name : new String[] {"first", "second"}) {
            s = admit(
                            restricted,
                            s,
                            pod(name).budget("40", "4Gi").app("m", null, null).build())
                    .state();
        }
        // A third 40 fits the machine only across both nodes (22 + 24 free), not a preferred placement.
        var r = reject(
                restricted,
                s,
                pod("third").budget("40", "4Gi").app("m", null, null).build());
        assertThat(r.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
    }
}
