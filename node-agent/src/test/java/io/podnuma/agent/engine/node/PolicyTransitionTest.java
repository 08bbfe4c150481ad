package io.podnuma.agent.engine.node;

import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A policy change under running pods: they keep what they hold, new pods follow the new policy. */
class PolicyTransitionTest {

    private static final CpuTopology INTEL = Fixtures.topology(FakeMachine.INTEL_2S_HT);

    private static NodeAllocator allocator(String reserved) {
        return NodeAllocator.create(
                INTEL,
                TestConfigs.staticCpu(reserved, TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.POD));
    }

    private static NodeState admit(NodeAllocator a, NodeState s, String name, String cpus) {
        var r = a.admit(s, pod(name).app("app", cpus, "1Gi").build());
        assertThat(r).isInstanceOf(AdmissionResult.Admitted.class);
        return ((AdmissionResult.Admitted) r).state();
    }

    @Test
    void aCompatibleChangeKeepsEveryAssignmentAndRebuildsTheSharedPoolUnderTheNewReservation() {
        NodeAllocator before = allocator("0,64");
        NodeState s = admit(before, admit(before, before.initialState(), "a", "4"), "b", "2");

        CpuSet held =
                s.pods().values().stream().map(PodAssignment::exclusiveCpus).reduce(CpuSet.empty(), CpuSet::union);
        int free =
                INTEL.onlineCpus().difference(held).difference(CpuSet.of(0, 64)).last();
        String newReserved = "0,64," + free;
        NodeAllocator after = allocator(newReserved);
        PolicyTransition.Outcome o = PolicyTransition.adopt(after, s);

        assertThat(o.degraded()).isFalse();
        assertThat(o.state().pods()).isEqualTo(s.pods());
        CpuSet exclusive =
                s.pods().values().stream().map(PodAssignment::exclusiveCpus).reduce(CpuSet.empty(), CpuSet::union);
        assertThat(o.state().sharedPool())
                .isEqualTo(after.initialState().sharedPool().difference(exclusive));
        assertThat(after.validate(o.state())).isSameAs(o.state());
        // New pods are placed by the new policy: they never get the newly reserved CPUs.
        NodeState next = admit(after, o.state(), "c", "8");
        assertThat(next.pods()
                        .get(next.pods().keySet().stream()
                                .filter(k -> !s.pods().containsKey(k))
                                .findFirst()
                                .orElseThrow())
                        .exclusiveCpus()
                        .intersects(CpuSet.parse(newReserved)))
                .isFalse();
    }

    @Test
    void aPodHoldingNewlyReservedCpusIsNamedAndKeepsThemUntilItLeaves() {
        NodeAllocator before = allocator("0,64");
        NodeState s = admit(before, before.initialState(), "holder", "4");
        CpuSet held = s.pods().values().iterator().next().exclusiveCpus();
        int taken = held.first();

        NodeAllocator after = allocator("0,64," + taken);
        PolicyTransition.Outcome o = PolicyTransition.adopt(after, s);

        assertThat(o.degraded()).isTrue();
        assertThat(o.inTheWay()).singleElement().satisfies(c -> {
            assertThat(c.pod().name()).isEqualTo("holder");
            assertThat(c.why()).contains("holds CPUs " + taken + " that the new policy reserves");
        });
        assertThat(o.summary()).startsWith("default/holder");
        assertThat(o.state().pods()).isEqualTo(s.pods());
        assertThat(o.state().sharedPool().intersects(held)).isFalse();

        // When the pod leaves, the reserved CPU goes where the new policy wants it and the books add up again.
        String uid = s.pods().keySet().iterator().next();
        NodeState gone = after.remove(o.state(), uid);
        assertThat(after.validate(gone)).isSameAs(gone);
        assertThat(gone).isEqualTo(after.initialState());
    }

    @Test
    void aStateThatGivesOneCpuToTwoPodsIsRefusedNotCarriedOver() {
        NodeAllocator a = allocator("0,64");
        NodeState s = admit(a, a.initialState(), "x", "2");
        PodAssignment x = s.pods().values().iterator().next();
        PodAssignment twin = new PodAssignment(
                new io.podnuma.agent.engine.pod.PodRef("uid-twin", "default", "twin"),
                x.qos(),
                x.placement(),
                x.numaAffinity(),
                x.bubble(),
                x.podSharedPool(),
                x.podMemory(),
                x.containers());
        TreeMap<String, PodAssignment> pods = new TreeMap<>(s.pods());
        pods.put("uid-twin", twin);
        NodeState doubled = new NodeState(s.sharedPool(), pods);

        assertThatThrownBy(() -> PolicyTransition.adopt(a, doubled))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("that another pod holds too");
    }
}
