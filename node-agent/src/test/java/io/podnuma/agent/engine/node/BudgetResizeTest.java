package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.node.ResizeAssertions.admitted;
import static io.podnuma.agent.engine.node.ResizeAssertions.booksAddUp;
import static io.podnuma.agent.engine.node.ResizeAssertions.infeasible;
import static io.podnuma.agent.engine.node.ResizeAssertions.resized;
import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * In-place resize of a pod budget on the 2-socket Intel fixture (NUMA node 0: CPUs 0-31 and their siblings 64-95;
 * node 1: 32-63 and 96-127; CPUs 0 and 64 reserved): the pod keeps what it holds, grows on its NUMA node, gives back
 * from its shared pool, and what cannot be done in place leaves everything as it was.
 */
class BudgetResizeTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);
    private static final NodeConfig SINGLE =
            TestConfigs.staticCpu("0,64", TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD);
    private static final NodeConfig BEST_EFFORT =
            TestConfigs.staticCpu("0,64", TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.POD);

    /** A budget of {@code cpus} with an app container holding {@code exclusive} CPUs of its own and a sharing sidecar. */
    private static Pod budget(String name, int cpus, int exclusive) {
        return pod(name)
                .budget(Integer.toString(cpus), "4Gi")
                .sidecar("proxy", null, null)
                .app("engine", exclusive == 0 ? null : Integer.toString(exclusive), exclusive == 0 ? null : "1Gi")
                .build();
    }

    /** The only pod a state holds. */
    private static PodAssignment only(NodeState s) {
        assertThat(s.pods()).hasSize(1);
        return s.pods().values().iterator().next();
    }

    @Test
    void growingKeepsEveryCpuAndTakesTheDifferenceOnTheSameNumaNodeWholeCoresFirst() {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 4, 2));
        PodAssignment before = only(s);

        ResizeResult.Resized r = resized(a.resize(s, budget("infer", 8, 2)));

        assertThat(before.bubble().isSubsetOf(r.pod().bubble()))
                .as("keeps what it held")
                .isTrue();
        assertThat(r.added().size()).isEqualTo(4);
        assertThat(r.returned()).isEqualTo(CpuSet.empty());
        assertThat(INTEL.numaNodesOf(r.pod().bubble()))
                .as("one NUMA node")
                .isEqualTo(INTEL.numaNodesOf(before.bubble()));
        assertThat(INTEL.coresOf(r.added()).size())
                .as("whole cores: 4 CPUs on 2 cores")
                .isEqualTo(2);
        assertThat(r.pod().container("engine").orElseThrow().cpus())
                .as("an exclusive slice stays")
                .isEqualTo(before.container("engine").orElseThrow().cpus());
        assertThat(r.pod().container("proxy").orElseThrow().cpus())
                .as("the sharing sidecar follows the pool")
                .isEqualTo(before.podSharedPool().union(r.added()))
                .isEqualTo(r.pod().podSharedPool());
        assertThat(r.state().sharedPool()).isEqualTo(s.sharedPool().difference(r.added()));
        booksAddUp(INTEL, a, r.state());
    }

    @Test
    void shrinkingGivesBackPoolCpusWholeCoresAndTheHighestFirstAndNeverASlice() {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 8, 2));
        PodAssignment before = only(s);

        ResizeResult.Resized r = resized(a.resize(s, budget("infer", 5, 2)));

        assertThat(r.returned().size()).isEqualTo(3);
        assertThat(r.returned().isSubsetOf(before.podSharedPool()))
                .as("from the pod shared pool")
                .isTrue();
        assertThat(INTEL.coresOf(r.returned()).size())
                .as("one whole core and one CPU")
                .isEqualTo(2);
        assertThat(r.pod().bubble()).isEqualTo(before.bubble().difference(r.returned()));
        assertThat(r.pod().container("engine").orElseThrow().cpus())
                .isEqualTo(before.container("engine").orElseThrow().cpus());
        assertThat(r.pod().container("proxy").orElseThrow().cpus())
                .isEqualTo(r.pod().podSharedPool());
        assertThat(r.state().sharedPool()).isEqualTo(s.sharedPool().union(r.returned()));
        booksAddUp(INTEL, a, r.state());

        // And back: the same size again takes what is free, on the same node.
        ResizeResult.Resized again = resized(a.resize(r.state(), budget("infer", 8, 2)));
        assertThat(INTEL.numaNodesOf(again.pod().bubble())).isEqualTo(INTEL.numaNodesOf(before.bubble()));
        booksAddUp(INTEL, a, again.state());
    }

    @Test
    void aGrowthUndoneGivesBackWhatItTookAndKeepsItsCoresWhole() {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 2, 0));
        PodAssignment before = only(s);
        assertThat(INTEL.coresOf(before.bubble()).size()).as("one whole core").isEqualTo(1);

        ResizeResult.Resized grown = resized(a.resize(s, budget("infer", 3, 0)));
        ResizeResult.Resized back = resized(a.resize(grown.state(), budget("infer", 2, 0)));

        assertThat(back.returned()).as("the CPU it took").isEqualTo(grown.added());
        assertThat(back.pod().bubble()).isEqualTo(before.bubble());
        assertThat(back.state()).isEqualTo(s);
    }

    @Test
    void theSameBudgetIsUnchangedAndANodeStateIsLeftAlone() {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 4, 2));
        assertThat(a.resize(s, budget("infer", 4, 2))).isInstanceOf(ResizeResult.Unchanged.class);
        assertThat(a.resize(s, budget("other", 4, 2))).isInstanceOf(ResizeResult.NotHeld.class);
    }

    @Test
    void underSingleNumaNodeGrowingPastTheNodeIsRefusedAndTheBestEffortPolicySpreads() {
        // Node 0 has 62 assignable CPUs: a 40-CPU budget there, a 20-CPU neighbour beside it, 2 left.
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 40, 2));
        s = admitted(a, s, budget("neighbour", 20, 0));
        PodAssignment infer = s.pods().values().stream()
                .filter(p -> p.ref().name().equals("infer"))
                .findFirst()
                .orElseThrow();
        int node = INTEL.numaNodesOf(infer.bubble()).first();

        ResizeResult.Infeasible no = infeasible(a.resize(s, budget("infer", 50, 2)));
        assertThat(no.reason()).isEqualTo(RejectionReason.TOPOLOGY_AFFINITY_ERROR);
        assertThat(no.message())
                .contains("cpu 40 → 50: 10 more CPUs on NUMA node(s) " + node + " under single-numa-node")
                .contains("it keeps " + infer.bubble());

        NodeAllocator spread = NodeAllocator.create(INTEL, BEST_EFFORT);
        NodeState t = admitted(spread, spread.initialState(), budget("infer", 40, 2));
        t = admitted(spread, t, budget("neighbour", 20, 0));
        ResizeResult.Resized r = resized(spread.resize(t, budget("infer", 50, 2)));
        assertThat(r.added().size()).isEqualTo(10);
        assertThat(INTEL.numaNodesOf(r.pod().bubble()).size()).as("both nodes").isEqualTo(2);
        assertThat(r.pod().numaAffinity().toArray()).containsExactly(0, 1);
        booksAddUp(INTEL, spread, r.state());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void theSharedPoolKeepsOneCpuWhileAContainerSharesIt(int exclusive) {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 4, exclusive));
        int pool = 4 - exclusive;
        ResizeResult.Infeasible no = infeasible(a.resize(s, budget("infer", exclusive, exclusive)));
        assertThat(no.reason()).isEqualTo(RejectionReason.EMPTY_POD_SHARED_POOL_ERROR);
        assertThat(no.message())
                .isEqualTo("pod " + only(s).ref() + " budget: cpu 4 → " + exclusive
                        + ": the exclusive slices hold " + exclusive + " CPUs and the pod shared pool " + pool
                        + ", which its sharing containers need one of, so at most " + (pool - 1)
                        + " can be given back; it keeps " + only(s).bubble());
        assertThat(resized(a.resize(s, budget("infer", exclusive + 1, exclusive)))
                        .returned()
                        .size())
                .isEqualTo(pool - 1);
    }

    @Test
    void aContainersOwnRequestPinnedMemoryAndNoCpusAtAllDoNotResizeInPlace() {
        NodeAllocator a = NodeAllocator.create(INTEL, SINGLE);
        NodeState s = admitted(a, a.initialState(), budget("infer", 4, 2));
        String ref = only(s).ref().toString();

        assertThat(infeasible(a.resize(s, budget("infer", 6, 3))).message())
                .isEqualTo(
                        "pod " + ref + " budget: container engine asks for 3 exclusive CPUs and holds 2: only the pod"
                                + " budget's CPUs resize in place, a container's own exclusive CPUs do not; it keeps "
                                + only(s).bubble());
        Pod fractional = pod("infer")
                .budget("500m", "4Gi")
                .sidecar("proxy", null, null)
                .app("engine", null, null)
                .build();
        assertThat(infeasible(a.resize(s, fractional)).message())
                .startsWith("pod " + ref + " budget: container engine asks for 0 exclusive CPUs and holds 2");

        NodeAllocator pinned = NodeAllocator.create(INTEL, TestConfigs.withStaticMemory(SINGLE, 2, "1Gi"));
        NodeState t = admitted(pinned, pinned.initialState(), budget("infer", 4, 0));
        Pod moreMemory = pod("infer")
                .budget("4", "8Gi")
                .sidecar("proxy", null, null)
                .app("engine", null, null)
                .build();
        ResizeResult.Infeasible memory = infeasible(pinned.resize(t, moreMemory));
        assertThat(memory.message())
                .isEqualTo("pod " + ref + " budget: memory memory=4Gi → memory=8Gi: the memory manager (Static) pinned"
                        + " the budget's memory to its NUMA nodes, and pinned memory does not resize in place; it keeps "
                        + only(t).bubble());
        assertThat(resized(pinned.resize(t, budget("infer", 6, 0))).added().size())
                .as("its CPUs still resize")
                .isEqualTo(2);
    }

    @Test
    void fullPcpusOnlyGivesBackWholeCoresOnly() {
        NodeConfig full =
                TestConfigs.withOptions(SINGLE, new StaticPolicyOptions(true, false, false, false, false, false));
        NodeAllocator a = NodeAllocator.create(INTEL, full);
        NodeState s = admitted(a, a.initialState(), budget("infer", 8, 2));
        ResizeResult.Infeasible odd = infeasible(a.resize(s, budget("infer", 7, 2)));
        assertThat(odd.reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
        ResizeResult.Resized even = resized(a.resize(s, budget("infer", 6, 2)));
        assertThat(INTEL.coresOf(even.returned()).size()).isEqualTo(1);
        assertThat(INTEL.cpusInCores(INTEL.coresOf(even.returned()))).isEqualTo(even.returned());
        ResizeResult.Infeasible oddGrowth = infeasible(a.resize(s, budget("infer", 9, 2)));
        assertThat(oddGrowth.reason()).isEqualTo(RejectionReason.SMT_ALIGNMENT_ERROR);
    }
}
