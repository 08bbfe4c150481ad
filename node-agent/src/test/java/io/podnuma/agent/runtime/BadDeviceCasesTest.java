package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.podresources.ContainerKey;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's device cases: what the running agent makes of a pod asking for one {@code example.com/accel} when
 * the kubelet's answer about it cannot be placed, on the in-memory agent (2 NUMA nodes, single-numa-node, pod scope).
 * The pod already admitted keeps its CPUs and its place in the node state.
 */
class BadDeviceCasesTest {

    private static final InputKind KIND = InputKind.DEVICES;
    private static final String ACCEL = "example.com/accel";
    private static final String KEPT = "the pod runs on the node's shared pool, not in the node state; the pod already"
            + " admitted keeps its CPUs";

    /** What the kubelet gave the bad pod's container, by case. */
    private static final java.util.Map<String, Function<FakeKubeletDevices, List<ContainerDevices>>> GIVEN =
            java.util.Map.of(
                    "device-numa-unknown", k -> List.of(k.device("accel-7", 7)),
                    "device-no-topology", k -> List.of(k.device("accel-x")),
                    "device-not-given", k -> List.of());

    @TempDir
    Path stateDir;

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final FakePods pods = new FakePods();
    private final FakeKubeletDevices kubelet = new FakeKubeletDevices(ACCEL, List.of(0, 1));
    private NodeAgent agent;

    @AfterEach
    void close() {
        if (agent != null) {
            agent.close();
        }
    }

    static List<BadInput> cases() {
        return List.of(
                new BadInput(
                        "device-numa-unknown",
                        KIND,
                        "a device on a NUMA node the machine does not have",
                        "the kubelet gave accel-7 with topology NUMA node 7; the machine has nodes 0 and 1",
                        List.of(
                                "pod unit/bad Warning TopologyAffinityError: pod unit/bad (uid bae60998-ffe4-323b-931e-3d6e4c19993e)"
                                        + " (cpu=3, example.com/accel=1): Resources cannot be allocated with Topology locality:"
                                        + " policy single-numa-node admits only a preferred placement on one NUMA node;"
                                        + " requested cpu [{0} preferred, {1} preferred, {0-1} not-preferred],"
                                        + " example.com/accel (no NUMA placement can satisfy it); best possible on NUMA nodes"
                                        + " {0-1}: {0-1} not preferred; it runs in the node's shared pool"),
                        KEPT),
                new BadInput(
                        "device-no-topology",
                        KIND,
                        "a device without topology, of a resource whose other devices have one",
                        "the kubelet gave accel-x without topology; the node's accel-0 and accel-1 are on nodes 0 and 1",
                        List.of(
                                "pod unit/bad Warning TopologyAffinityError: pod unit/bad (uid bae60998-ffe4-323b-931e-3d6e4c19993e)"
                                        + " (cpu=3, example.com/accel=1): Resources cannot be allocated with Topology locality:"
                                        + " policy single-numa-node admits only a preferred placement on one NUMA node;"
                                        + " requested cpu [{0} preferred, {1} preferred, {0-1} not-preferred],"
                                        + " example.com/accel (no NUMA placement can satisfy it); best possible on NUMA nodes"
                                        + " {0-1}: {0-1} not preferred; it runs in the node's shared pool"),
                        KEPT),
                new BadInput(
                        "device-not-given",
                        KIND,
                        "a device the kubelet never gives",
                        "the pod asks for example.com/accel: 1, the kubelet lists no device for it",
                        List.of("pod unit/bad Normal WaitingForDevices: not placed yet: the kubelet has not given it"
                                + " its devices yet (container app: example.com/accel 0 of 1); until then it runs on the"
                                + " node's shared pool"),
                        KEPT));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentAnswersAndKeepsTheAdmittedPod(BadInput c) throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        agent = InMemoryAgent.twoSocketPodScope(topo, stateDir, pods)
                .withDevices(kubelet)
                .withEvents(new RecordingEvents(events))
                .started();
        Pod keeper = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(1, "keeper", "keeper", "4"));
        pods.put(keeper);
        agent.drain();
        var kept = agent.state().pods().get(keeper.getMetadata().getUid());
        assertThat(kept).isNotNull();

        kubelet.give(
                new ContainerKey("unit", "bad", "app"),
                GIVEN.get(c.id()).apply(kubelet).toArray(ContainerDevices[]::new));
        Pod bad = RuntimeFixtures.withStatus(asking(RuntimeFixtures.podOfKind(1, "bad", "bad", "2")));
        pods.put(bad);
        agent.drain();

        List<String> answer =
                events.stream().filter(e -> e.startsWith("pod unit/bad ")).toList();
        c.assertAnswer(answer);
        assertThat(agent.state().pods()).doesNotContainKey(bad.getMetadata().getUid());
        assertThat(agent.state().pods().get(keeper.getMetadata().getUid())).isEqualTo(kept);
    }

    /** {@code pod} in namespace unit, its app container asking for one accelerator. */
    private static Pod asking(Pod pod) {
        return new PodBuilder(pod)
                .editMetadata()
                .withNamespace("unit")
                .endMetadata()
                .editSpec()
                .editFirstContainer()
                .editResources()
                .addToLimits(ACCEL, new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
