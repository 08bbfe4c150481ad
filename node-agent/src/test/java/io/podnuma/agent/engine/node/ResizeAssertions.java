package io.podnuma.agent.engine.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;

/** What the resize tests check of every answer: its kind, and books in which every CPU is held once. */
final class ResizeAssertions {

    private ResizeAssertions() {}

    static NodeState admitted(NodeAllocator a, NodeState s, Pod p) {
        AdmissionResult r = a.admit(s, p);
        assertThat(r).as("%s", r).isInstanceOf(AdmissionResult.Admitted.class);
        return ((AdmissionResult.Admitted) r).state();
    }

    static ResizeResult.Resized resized(ResizeResult r) {
        assertThat(r).as("%s", r).isInstanceOf(ResizeResult.Resized.class);
        return (ResizeResult.Resized) r;
    }

    static ResizeResult.Infeasible infeasible(ResizeResult r) {
        assertThat(r).as("%s", r).isInstanceOf(ResizeResult.Infeasible.class);
        return (ResizeResult.Infeasible) r;
    }

    /**
     * Every CPU once: the node shared pool and the pods' exclusive CPUs (bubbles, or containers' own) never overlap
     * and add up to the node; a bubble's containers stay inside it.
     */
    static void booksAddUp(CpuTopology machine, NodeAllocator a, NodeState s) {
        CpuSet held = CpuSet.empty();
        for (PodAssignment p : s.pods().values()) {
            CpuSet mine = p.exclusiveCpus();
            assertThat(mine.intersects(held))
                    .as("%s overlaps another pod", p.ref())
                    .isFalse();
            held = held.union(mine);
            for (ContainerAssignment c : p.containers()) {
                if (p.hasBubble() && c.kind() != AssignmentKind.NODE_SHARED) {
                    assertThat(c.cpus().isSubsetOf(p.bubble())).isTrue();
                }
            }
        }
        assertThat(s.sharedPool().intersects(held))
                .as("the node pool overlaps a pod's exclusive CPUs")
                .isFalse();
        assertThat(s.sharedPool().union(held)).isEqualTo(machine.onlineCpus());
        a.validate(s);
    }
}
