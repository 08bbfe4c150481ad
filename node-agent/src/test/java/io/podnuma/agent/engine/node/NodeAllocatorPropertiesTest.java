package io.podnuma.agent.engine.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random machines, configurations and pod sequences (admit, remove a pod, remove a container): exclusive
 * CPUs never overlap, pools add up to the online CPUs, bubbles hold their containers' slices, alignment holds
 * where the policy promises it, admit-then-remove restores the state, and the same inputs give the same
 * state. Seeded: the seed is printed, {@code -Dpodnuma.seed=N} replays it.
 */
class NodeAllocatorPropertiesTest {

    @Test
    void randomSequencesKeepTheInvariants() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        int admitted = 0;
        int rejected = 0;
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, 200)) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeConfig config = m.config();
            NodeAllocator allocator = m.allocator();
            long sequenceSeed = rnd.nextLong();
            List<String> log = new ArrayList<>();
            NodeState end = run(allocator, topo, sequenceSeed, seed, machine, log);
            admitted += log.stream().filter("admitted"::equals).count();
            rejected += log.stream().filter("rejected"::equals).count();
            // Determinism: a fresh allocator on the same inputs ends in the same state.
            NodeState again =
                    run(NodeAllocator.create(topo, config), topo, sequenceSeed, seed, machine, new ArrayList<>());
            assertThat(again)
                    .as("seed %d machine %d: determinism", seed, machine)
                    .isEqualTo(end);
            // Removing everything gives the initial state back.
            NodeState s = end;
            for (String uid : end.pods().keySet()) {
                s = allocator.remove(s, uid);
            }
            assertThat(s).as("seed %d machine %d: all removed", seed, machine).isEqualTo(allocator.initialState());
        }
        System.out.println("admitted " + admitted + ", rejected " + rejected);
        assertThat(admitted).as("the generator must exercise admissions").isGreaterThan(500);
        assertThat(rejected).as("and rejections").isGreaterThan(20);
    }

    private static NodeState run(
            NodeAllocator allocator, CpuTopology topo, long sequenceSeed, long seed, int machine, List<String> log) {
        Random rnd = new Random(sequenceSeed);
        NodeState state = allocator.initialState();
        int maxCpus = Math.max(2, topo.numCpus() / 3);
        for (int step = 0; step < 25; step++) {
            String context = "seed " + seed + " machine " + machine + " step " + step + " " + allocator.config();
            int action = rnd.nextInt(10);
            if (action < 7 || state.pods().isEmpty()) {
                Pod pod = RandomScenarios.pod(rnd, "p" + step, maxCpus);
                AdmissionResult r = allocator.admit(state, pod);
                if (r instanceof AdmissionResult.Admitted a) {
                    assertThat(allocator.remove(a.state(), pod.ref().uid()))
                            .as("%s: admit then remove restores", context)
                            .isEqualTo(state);
                    state = a.state();
                    log.add("admitted");
                } else {
                    assertThat(((AdmissionResult.Rejected) r).reason())
                            .isIn(
                                    RejectionReason.TOPOLOGY_AFFINITY_ERROR,
                                    RejectionReason.SMT_ALIGNMENT_ERROR,
                                    RejectionReason.EMPTY_POD_SHARED_POOL_ERROR,
                                    RejectionReason.UNEXPECTED_ADMISSION_ERROR);
                    log.add("rejected");
                }
            } else {
                List<String> uids = new ArrayList<>(state.pods().keySet());
                String uid = uids.get(rnd.nextInt(uids.size()));
                if (action < 9) {
                    state = allocator.remove(state, uid);
                } else {
                    List<ContainerAssignment> cs = state.pods().get(uid).containers();
                    state = allocator.removeContainer(
                            state, uid, cs.get(rnd.nextInt(cs.size())).name());
                }
            }
            checkInvariants(allocator, topo, state, context);
        }
        return state;
    }

    static void checkInvariants(NodeAllocator allocator, CpuTopology topo, NodeState state, String context) {
        CpuSet exclusive = CpuSet.empty();
        for (PodAssignment p : state.pods().values()) {
            CpuSet mine = p.exclusiveCpus();
            assertThat(mine.intersects(exclusive))
                    .as("%s: pod %s CPUs %s overlap another pod's", context, p.ref(), mine)
                    .isFalse();
            exclusive = exclusive.union(mine);
            CpuSet longRunning = CpuSet.empty();
            for (ContainerAssignment c : p.containers()) {
                if (c.kind() == AssignmentKind.EXCLUSIVE && c.type().longRunning()) {
                    assertThat(c.cpus().intersects(longRunning))
                            .as("%s: %s slice %s overlaps a sibling's", context, c.name(), c.cpus())
                            .isFalse();
                    longRunning = longRunning.union(c.cpus());
                }
                if (p.hasBubble() && c.kind() != AssignmentKind.NODE_SHARED) {
                    assertThat(c.cpus().isSubsetOf(p.bubble()))
                            .as("%s: bubble holds %s", context, c.name())
                            .isTrue();
                }
                if (p.hasBubble()
                        && c.kind() == AssignmentKind.POD_SHARED
                        && c.type().longRunning()) {
                    assertThat(c.cpus())
                            .as("%s: %s on the pod pool", context, c.name())
                            .isEqualTo(p.podSharedPool());
                }
            }
            if (p.hasBubble()) {
                assertThat(p.podSharedPool().isEmpty() || !p.podSharedPool().intersects(longRunning))
                        .as("%s: pod pool apart from the slices", context)
                        .isTrue();
            }
            if (allocator.config().topologyPolicy() == TopologyPolicyName.SINGLE_NUMA_NODE) {
                if (p.placement() != PodPlacement.CONTAINER) {
                    assertThat(topo.numaNodesOf(mine).size())
                            .as("%s: pod %s on one NUMA node", context, p.ref())
                            .isLessThanOrEqualTo(1);
                } else {
                    for (ContainerAssignment c : p.containers()) {
                        if (c.kind() == AssignmentKind.EXCLUSIVE) {
                            assertThat(topo.numaNodesOf(c.cpus()).size())
                                    .as("%s: container %s on one NUMA node", context, c.name())
                                    .isEqualTo(1);
                        }
                    }
                }
            }
        }
        CpuSet shared = state.sharedPool();
        assertThat(shared.intersects(exclusive))
                .as("%s: shared %s vs exclusive %s", context, shared, exclusive)
                .isFalse();
        assertThat(shared.union(exclusive).union(allocator.reservedCpus()))
                .as("%s: shared + exclusive + reserved = online", context)
                .isEqualTo(topo.onlineCpus());
        assertThat(exclusive.intersects(allocator.reservedCpus()))
                .as("%s: reserved never exclusive", context)
                .isFalse();
        allocator.memoryState(state); // the memory books rebuild without error
    }
}
