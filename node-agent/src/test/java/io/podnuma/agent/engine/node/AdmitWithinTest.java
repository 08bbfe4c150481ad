package io.podnuma.agent.engine.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeAllocator#admitWithin}: rebuilding lost books from the CPUs pods hold. On random machines,
 * configurations and admit/remove sequences, the surviving pods are admitted again on an empty node, each within
 * the CPUs its running containers held, the rest afresh: the books keep their invariants at every step, a pod
 * re-admitted within its CPUs holds exactly them, a single-container pod without a budget keeps its CPUs (and its NUMA affinity
 * under restricted and single-numa-node), and two pods in three keep every container's CPUs (76-80% did in seven runs). Seeded like the other
 * property tests.
 */
class AdmitWithinTest {

    @Test
    void podsReadmittedWithinTheCpusTheirContainersHoldKeepThem() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Map<String, Integer> tally = new TreeMap<>();
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, 400)) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeConfig config = m.config();
            NodeAllocator allocator = m.allocator();
            String context = "seed " + seed + " machine " + machine + " " + config;
            Map<String, Pod> alive = new LinkedHashMap<>(); // in admission order
            NodeState lost = allocator.initialState();
            int maxCpus = Math.max(2, topo.numCpus() / 3);
            for (int step = 0; step < 25; step++) {
                if (rnd.nextInt(10) < 7 || alive.isEmpty()) {
                    Pod pod = RandomScenarios.pod(rnd, "p" + step, maxCpus);
                    if (allocator.admit(lost, pod) instanceof AdmissionResult.Admitted a) {
                        lost = a.state();
                        alive.put(pod.ref().uid(), pod);
                    }
                } else {
                    List<String> uids = new ArrayList<>(alive.keySet());
                    String uid = uids.get(rnd.nextInt(uids.size()));
                    lost = allocator.remove(lost, uid);
                    alive.remove(uid);
                }
            }

            boolean aligned = config.topologyPolicy() == TopologyPolicyName.RESTRICTED
                    || config.topologyPolicy() == TopologyPolicyName.SINGLE_NUMA_NODE;
            // Like the agent's rebuild: first every pod within the CPUs its running containers hold, then the
            // others afresh.
            NodeState rebuilt = allocator.initialState();
            List<Pod> deferred = new ArrayList<>();
            for (Pod pod : alive.values()) {
                String at = context + ": " + pod.ref();
                PodAssignment held = lost.pods().get(pod.ref().uid());
                CpuSet running = runningOn(held);
                // Without a bubble: a bubble's CPUs no running container uses are not seen on the host.
                boolean single = held.containers().size() == 1 && !held.hasBubble();
                if (running.isEmpty()) {
                    // Nothing on the host says where it was: admitted afresh, after the pods that show it.
                    deferred.add(pod);
                    tally.merge("nothing exclusive running", 1, Integer::sum);
                    continue;
                }
                AdmissionResult r = allocator.admitWithin(rebuilt, pod, running);
                if (r instanceof AdmissionResult.Rejected rej) {
                    // Refusals that are not about the pod's own CPUs: an init container that needed more than
                    // the running containers hold, the free whole cores full-pcpus-only counts on the node, and
                    // under none/best-effort an affinity the memory manager refuses.
                    if (single && aligned && !config.cpuOptions().fullPcpusOnly()) {
                        throw new AssertionError(
                                at + " alone in its pod is refused within " + running + ": " + rej.message());
                    }
                    deferred.add(pod);
                    tally.merge("refused within", 1, Integer::sum);
                    continue;
                }
                rebuilt = ((AdmissionResult.Admitted) r).state();
                NodeAllocatorPropertiesTest.checkInvariants(allocator, topo, rebuilt, at);
                PodAssignment again = rebuilt.pods().get(pod.ref().uid());
                assertThat(runningOn(again))
                        .as("%s: CPUs of the running containers", at)
                        .isEqualTo(running);
                if (single && aligned) {
                    assertThat(again.numaAffinity()).as("%s: NUMA affinity", at).isEqualTo(held.numaAffinity());
                }
                boolean everyContainer = held.containers().stream()
                        .filter(c -> c.type().longRunning())
                        .allMatch(c ->
                                again.container(c.name()).orElseThrow().cpus().equals(c.cpus()));
                // Containers may trade CPUs inside the pod where the allocator's order differs on fewer CPUs.
                assertThat(everyContainer || !single)
                        .as("%s: the container keeps its CPUs", at)
                        .isTrue();
                tally.merge(everyContainer ? "kept" : "traded", 1, Integer::sum);
            }
            for (Pod pod : deferred) {
                if (allocator.admit(rebuilt, pod) instanceof AdmissionResult.Admitted a) {
                    rebuilt = a.state();
                }
                NodeAllocatorPropertiesTest.checkInvariants(allocator, topo, rebuilt, context + " (afresh)");
            }
            if (deferred.isEmpty()) {
                // What finished init containers alone held goes back to the node.
                assertThat(lost.sharedPool().isSubsetOf(rebuilt.sharedPool()))
                        .as("%s: shared pool %s within %s", context, lost.sharedPool(), rebuilt.sharedPool())
                        .isTrue();
                tally.merge(rebuilt.equals(lost) ? "identical states" : "other states", 1, Integer::sum);
            }
        }
        System.out.println("pods: " + tally);
        int pods = tally.getOrDefault("kept", 0)
                + tally.getOrDefault("traded", 0)
                + tally.getOrDefault("refused within", 0);
        assertThat(pods)
                .as("the generator must leave pods holding CPUs to rebuild")
                .isGreaterThan(600);
        assertThat(tally.getOrDefault("kept", 0))
                .as("pods holding CPUs whose every running container keeps them")
                .isGreaterThan(pods * 2 / 3);
    }

    /**
     * What the agent sees of a pod on the host: the cpusets of its running containers (finished init containers
     * have no cgroup left), where they are not the node's shared pool.
     */
    private static CpuSet runningOn(PodAssignment pod) {
        CpuSet.Builder b = CpuSet.builder();
        for (ContainerAssignment c : pod.containers()) {
            if (c.type().longRunning() && c.kind() != AssignmentKind.NODE_SHARED) {
                b.addAll(c.cpus());
            }
        }
        return b.build();
    }

    @Test
    void withinEveryCpuItIsAdmitAndWithinTooFewItRefusesWithoutTouchingTheState() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        int refused = 0;
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, 100, r -> TestTopologies.random(r, false))) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeAllocator allocator = m.allocator();
            NodeState state = allocator.initialState();
            for (int step = 0; step < 10; step++) {
                Pod pod = RandomScenarios.pod(rnd, "p" + step, Math.max(2, topo.numCpus() / 3));
                AdmissionResult plain = allocator.admit(state, pod);
                assertThat(allocator.admitWithin(state, pod, topo.onlineCpus()))
                        .as("seed %d machine %d step %d", seed, machine, step)
                        .isEqualTo(plain);
                // One free CPU is too few for any pod that takes exclusive CPUs.
                AdmissionResult one = allocator.admitWithin(
                        state,
                        pod,
                        state.sharedPool().difference(allocator.reservedCpus()).lowest(1));
                if (plain instanceof AdmissionResult.Admitted a
                        && a.pod().exclusiveCpus().size() > 1) {
                    assertThat(one).isInstanceOf(AdmissionResult.Rejected.class);
                    refused++;
                }
                if (plain instanceof AdmissionResult.Admitted a) {
                    state = a.state();
                }
            }
        }
        assertThat(refused).as("the generator must ask for more than one CPU").isGreaterThan(50);
    }
}
