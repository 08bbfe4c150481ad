package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.node.ResizeAssertions.admitted;
import static io.podnuma.agent.engine.node.ResizeAssertions.booksAddUp;
import static io.podnuma.agent.engine.node.ResizeAssertions.infeasible;
import static io.podnuma.agent.engine.node.ResizeAssertions.resized;
import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * In-place resize of a Guaranteed pod placed per container (no pod budget) on the 2-socket Intel fixture (NUMA node 0:
 * CPUs 0-31 and their siblings 64-95; node 1: 32-63 and 96-127; CPUs 0 and 64 reserved): each container keeps its
 * CPUs and grows beside them, all or nothing.
 */
class ContainerResizeTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);

    private static NodeConfig config(TopologyPolicyName policy, NodeConfig.TopologyScope scope) {
        return TestConfigs.withoutPodLevel(TestConfigs.staticCpu("0,64", policy, scope));
    }

    /** An engine of {@code engine} CPUs and a log shipper of {@code logs} CPUs (0: shared CPUs, 500m). */
    private static Pod classic(int engine, int logs) {
        return pod("classic")
                .app("engine", Integer.toString(engine), "1Gi")
                .app("logs", logs == 0 ? "500m" : Integer.toString(logs), "256Mi")
                .build();
    }

    private static ContainerAssignment container(NodeState s, String name) {
        return s.pods().values().iterator().next().container(name).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(
            value = NodeConfig.TopologyScope.class,
            names = {"POD", "CONTAINER"})
    void aContainerGrowsBesideItsCpusAndShrinksFromItsHighestWholeCores(NodeConfig.TopologyScope scope) {
        NodeAllocator a = NodeAllocator.create(INTEL, config(TopologyPolicyName.SINGLE_NUMA_NODE, scope));
        NodeState s = admitted(a, a.initialState(), classic(2, 2));
        ContainerAssignment engine = container(s, "engine");
        ContainerAssignment logs = container(s, "logs");

        ResizeResult.Resized grown = resized(a.resize(s, classic(6, 2)));
        ContainerAssignment bigger = container(grown.state(), "engine");
        assertThat(engine.cpus().isSubsetOf(bigger.cpus()))
                .as("keeps what it held")
                .isTrue();
        assertThat(bigger.cpus().size()).isEqualTo(6);
        assertThat(INTEL.numaNodesOf(bigger.cpus())).isEqualTo(INTEL.numaNodesOf(engine.cpus()));
        assertThat(INTEL.coresOf(grown.added()).size()).as("whole cores").isEqualTo(2);
        assertThat(container(grown.state(), "logs"))
                .as("the other container stays")
                .isEqualTo(logs);
        assertThat(grown.change()).isEqualTo("container engine 2 → 6 CPUs");
        assertThat(grown.state().sharedPool()).isEqualTo(s.sharedPool().difference(grown.added()));
        booksAddUp(INTEL, a, grown.state());

        ResizeResult.Resized shrunk = resized(a.resize(grown.state(), classic(4, 2)));
        assertThat(shrunk.returned().size()).isEqualTo(2);
        assertThat(INTEL.cpusInCores(INTEL.coresOf(shrunk.returned()))).isEqualTo(shrunk.returned());
        assertThat(shrunk.returned().last())
                .as("the highest core goes")
                .isEqualTo(bigger.cpus().last());
        assertThat(container(shrunk.state(), "engine").cpus().isSubsetOf(bigger.cpus()))
                .isTrue();
        booksAddUp(INTEL, a, shrunk.state());
    }

    @Test
    void twoContainersResizeTogetherOrNotAtAll() {
        // Node 0 has 62 assignable CPUs: engine 2 and logs 2 there, a 50-CPU neighbour beside them, 8 left.
        NodeAllocator a =
                NodeAllocator.create(INTEL, config(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD));
        NodeState s = admitted(a, a.initialState(), classic(2, 2));
        s = admitted(a, s, pod("neighbour").app("main", "50", "1Gi").build());

        ResizeResult.Resized both = resized(a.resize(s, classic(6, 4)));
        assertThat(both.change()).isEqualTo("container engine 2 → 6 CPUs, container logs 2 → 4 CPUs");
        assertThat(both.added().size()).isEqualTo(6);
        booksAddUp(INTEL, a, both.state());

        ResizeResult.Infeasible tooMuch = infeasible(a.resize(s, classic(6, 8)));
        assertThat(tooMuch.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
        assertThat(tooMuch.message())
                .startsWith("pod " + both.pod().ref() + " container logs: cpu 2 → 8: 6 more CPUs on NUMA node(s) ")
                .contains("it keeps " + container(s, "logs").cpus());
    }

    @Test
    void underBestEffortAContainerSpreadsWhenItsNodeIsFull() {
        NodeAllocator a =
                NodeAllocator.create(INTEL, config(TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.CONTAINER));
        NodeState s = admitted(a, a.initialState(), classic(2, 2));
        s = admitted(a, s, pod("neighbour").app("main", "56", "1Gi").build());
        ResizeResult.Resized r = resized(a.resize(s, classic(6, 2)));
        assertThat(INTEL.numaNodesOf(container(r.state(), "engine").cpus()).size())
                .as("both nodes")
                .isEqualTo(2);
        booksAddUp(INTEL, a, r.state());
    }

    @Test
    void sharedToExclusivePinnedMemoryAndOddCoresUnderFullPcpusOnlyDoNotResizeInPlace() {
        NodeAllocator a =
                NodeAllocator.create(INTEL, config(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD));
        NodeState s = admitted(a, a.initialState(), classic(2, 0));
        String ref = s.pods().values().iterator().next().ref().toString();
        assertThat(infeasible(a.resize(s, classic(2, 1))).message())
                .startsWith("pod " + ref + " container logs: cpu 0 → 1: a container on shared CPUs cannot take"
                        + " exclusive ones in place");
        assertThat(a.resize(s, classic(2, 0))).isInstanceOf(ResizeResult.Unchanged.class);

        NodeAllocator pinned = NodeAllocator.create(
                INTEL,
                TestConfigs.withStaticMemory(
                        config(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD), 2, "1Gi"));
        NodeState t = admitted(pinned, pinned.initialState(), classic(2, 0));
        Pod moreMemory = pod("classic")
                .app("engine", "3", "2Gi")
                .app("logs", "500m", "256Mi")
                .build();
        assertThat(infeasible(pinned.resize(t, moreMemory)).message())
                .isEqualTo("pod " + ref + " container engine: cpu 2 → 3, memory memory=1Gi → memory=2Gi: the memory"
                        + " manager (Static) pinned the container's memory to its NUMA nodes, and pinned memory does"
                        + " not resize in place; it keeps "
                        + container(t, "engine").cpus());
        assertThat(resized(pinned.resize(t, classic(3, 0))).added().size())
                .as("its CPUs alone still resize")
                .isEqualTo(1);

        NodeAllocator full = NodeAllocator.create(
                INTEL,
                TestConfigs.withOptions(
                        config(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD),
                        new StaticPolicyOptions(true, false, false, false, false, false)));
        NodeState u = admitted(full, full.initialState(), classic(4, 0));
        assertThat(infeasible(full.resize(u, classic(3, 0))).reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
        assertThat(infeasible(full.resize(u, classic(5, 0))).reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
        assertThat(resized(full.resize(u, classic(2, 0))).returned())
                .isEqualTo(INTEL.cpusInCores(
                        INTEL.coresOf(resized(full.resize(u, classic(2, 0))).returned())));
    }

    @Test
    void aPodTheEngineDoesNotHoldIsNotResized() {
        NodeAllocator a =
                NodeAllocator.create(INTEL, config(TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD));
        Pod p = classic(2, 2);
        assertThat(a.resize(a.initialState(), p))
                .isEqualTo(new ResizeResult.NotHeld(p.ref(), "the pod is not admitted"));
    }
}
