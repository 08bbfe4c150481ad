package io.podnuma.agent.engine.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * No false positives: every state the engine produces on random machines and configurations, through random
 * sequences of admit, remove pod and remove container, passes {@link NodeAllocator#validate} after every step.
 * Seeded: the seed is printed, {@code -Dpodnuma.seed=N} replays it; {@code -Dpodnuma.machines=N} runs more.
 */
class ValidateAcceptsEngineStatesTest {

    private static final int MACHINES = Integer.getInteger("podnuma.machines", 300);
    private static final int STEPS = 30;

    @Test
    void everyStateTheEngineProducesPassesValidate() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Map<String, Integer> podsSeen = new TreeMap<>();
        int states = 0;
        int containerRemovals = 0;
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, MACHINES)) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeConfig config = m.config();
            NodeAllocator allocator = m.allocator();
            Random steps = new Random(rnd.nextLong());
            NodeState state = allocator.initialState();
            int maxCpus = Math.max(2, topo.numCpus() / 3);
            for (int step = 0; step < STEPS; step++) {
                String action;
                int roll = steps.nextInt(10);
                if (roll < 7 || state.pods().isEmpty()) {
                    Pod pod = RandomScenarios.pod(steps, "p" + step, maxCpus);
                    action = "admit " + pod;
                    if (allocator.admit(state, pod) instanceof AdmissionResult.Admitted a) {
                        state = a.state();
                    }
                } else {
                    List<String> uids = new ArrayList<>(state.pods().keySet());
                    String uid = uids.get(steps.nextInt(uids.size()));
                    if (roll < 9) {
                        action = "remove pod " + uid;
                        state = allocator.remove(state, uid);
                    } else {
                        List<ContainerAssignment> cs = state.pods().get(uid).containers();
                        String name = cs.get(steps.nextInt(cs.size())).name();
                        action = "remove container " + uid + "/" + name;
                        state = allocator.removeContainer(state, uid, name);
                        containerRemovals++;
                    }
                }
                NodeState checked = state;
                assertThatCode(() -> allocator.validate(checked))
                        .as(
                                "seed %d machine %d step %d after %s under %s on %d CPUs / %d NUMA nodes:%n%s",
                                seed, machine, step, action, config, topo.numCpus(), topo.numNumaNodes(), checked)
                        .doesNotThrowAnyException();
                states++;
                for (PodAssignment p : state.pods().values()) {
                    podsSeen.merge(
                            p.placement().wireName() + (p.hasBubble() ? "+bubble" : "") + " " + config.topologyPolicy(),
                            1,
                            Integer::sum);
                }
            }
        }
        System.out.println(getClass().getSimpleName() + ": " + states + " states validated (" + containerRemovals
                + " after a container removal); pods by placement and policy: " + podsSeen);
        assertThat(states).as("the generator must produce states").isGreaterThan(MACHINES * STEPS / 2);
        assertThat(podsSeen.keySet())
                .as("every placement was exercised under the aligning policies")
                .contains(
                        "pod-level+bubble single-numa-node",
                        "pod-level+bubble restricted",
                        "pod single-numa-node",
                        "pod restricted",
                        "container single-numa-node",
                        "container restricted");
    }
}
