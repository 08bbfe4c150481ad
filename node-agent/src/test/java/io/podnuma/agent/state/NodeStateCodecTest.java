package io.podnuma.agent.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.node.RandomScenarios;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.testing.Seeds;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NodeStateCodecTest {

    @Test
    void randomStatesRoundTripAndRebuildTheSameBooks() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        int states = 0;
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, 60, r -> TestTopologies.random(r))) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeConfig config = m.config();
            NodeAllocator allocator = m.allocator();
            NodeState state = allocator.initialState();
            for (int step = 0; step < 12; step++) {
                if (allocator.admit(state, RandomScenarios.pod(rnd, "p" + step, Math.max(2, topo.numCpus() / 3)))
                        instanceof AdmissionResult.Admitted a) {
                    state = a.state();
                }
                String json = NodeStateCodec.encode(state);
                NodeState back = allocator.validate(NodeStateCodec.decode(json));
                assertThat(back)
                        .as("seed %d machine %d step %d:%n%s", seed, machine, step, json)
                        .isEqualTo(state);
                assertThat(NodeStateCodec.encode(back)).isEqualTo(json);
                if (config.memoryPolicy() == NodeConfig.MemoryPolicy.STATIC) {
                    assertThat(allocator.memoryState(back)).isEqualTo(allocator.memoryState(state));
                }
                states++;
            }
        }
        assertThat(states).isGreaterThan(300);
    }

    @Test
    void anUnknownVersionIsRefusedWithWhatToDo() {
        assertThatThrownBy(() -> NodeStateCodec.decode("{\"version\": 2, \"sharedPool\": \"0-3\", \"pods\": []}"))
                .isInstanceOf(NodeStateFormatException.class)
                .hasMessage(
                        "node state version 2 is not supported: this agent reads version 1 only; move the file aside"
                                + " to rebuild the state from the running pods");
        assertThatThrownBy(() -> NodeStateCodec.decode("{\"sharedPool\": \"0-3\", \"pods\": []}"))
                .hasMessageContaining("has no integer \"version\"");
    }

    @Test
    void badFieldsAreNamedWithTheirPathAndValue() {
        assertThatThrownBy(() -> NodeStateCodec.decode("{\"version\": 1, \"sharedPool\": \"3-1\", \"pods\": []}"))
                .hasMessageStartingWith("sharedPool \"3-1\": ");
        String pod =
                "{\"version\":1,\"sharedPool\":\"0-3\",\"pods\":[{\"uid\":\"u\",\"namespace\":\"n\",\"name\":\"p\","
                        + "\"qos\":\"Guaranteed\",\"placement\":\"pod-level\",\"numaAffinity\":[0],\"bubble\":\"4-5\","
                        + "\"podSharedPool\":\"5\",\"memory\":[],\"containers\":[{\"name\":\"c\",\"type\":\"app\","
                        + "\"kind\":\"special\",\"cpus\":\"4\",\"memory\":[],\"memoryNodes\":[]}]}]}";
        assertThatThrownBy(() -> NodeStateCodec.decode(pod))
                .hasMessage("pods[0].containers[0].kind \"special\": assignment kind \"special\" is unknown: allowed"
                        + " exclusive, pod-shared, node-shared");
        assertThatThrownBy(() -> NodeStateCodec.decode(
                        pod.replace("special", "exclusive").replace("\"cpus\":\"4\"", "\"cpus\":\"7\"")))
                .hasMessageContaining("container c CPUs 7 are outside the pod's bubble 4-5");
        assertThatThrownBy(() -> NodeStateCodec.decode("[1]")).hasMessageContaining("must be a JSON object");
    }

    @Test
    void aStateFromAnotherMachineOrConfigurationIsRefused() {
        CpuTopology small = TestTopologies.DUAL_SOCKET_NO_HT;
        NodeAllocator a = NodeAllocator.create(
                small,
                new NodeConfig(
                        NodeConfig.CpuPolicy.STATIC,
                        io.podnuma.agent.engine.cpu.ReservedCpus.explicit(io.podnuma.agent.engine.cpuset.CpuSet.of(0)),
                        null,
                        NodeConfig.MemoryPolicy.NONE,
                        null,
                        io.podnuma.agent.engine.topology.TopologyPolicyName.NONE,
                        NodeConfig.TopologyScope.CONTAINER,
                        null,
                        true));
        var admitted = (AdmissionResult.Admitted) a.admit(
                a.initialState(),
                io.podnuma.agent.engine.pod.TestPods.pod("p")
                        .app("x", "2", "1Gi")
                        .build());
        String json = NodeStateCodec.encode(admitted.state());
        assertThat(a.validate(NodeStateCodec.decode(json))).isEqualTo(admitted.state());
        String moved = json.replace("\"sharedPool\" : \"0,3-7\"", "\"sharedPool\" : \"0,3-9\"");
        assertThat(moved).isNotEqualTo(json);
        assertThatThrownBy(() -> a.validate(NodeStateCodec.decode(moved)))
                .hasMessageContaining("sharedPool is \"0,3-9\"")
                .hasMessageContaining("not online: \"8-9\"");
        String overlap = json.replace("\"sharedPool\" : \"0,3-7\"", "\"sharedPool\" : \"0-7\"");
        assertThatThrownBy(() -> a.validate(NodeStateCodec.decode(overlap)))
                .hasMessageStartingWith(
                        "sharedPool is \"0-7\", expected CPUs no pod holds exclusively (\"1-2\" are held by pod ")
                .hasMessageEndingWith(" container x in its cpus)");
    }
}
