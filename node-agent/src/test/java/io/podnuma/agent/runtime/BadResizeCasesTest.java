package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's resize cases: what the running agent makes of an admitted pod resized (spec changed, the kubelet
 * having allocated it) to something it cannot give in place, on the in-memory agent (2 NUMA nodes of 64 CPUs,
 * single-numa-node, pod scope). The pod keeps what it holds, the node state is unchanged, the pod gets a Warning and
 * its {@code podnuma.io/ResizePending} condition.
 */
class BadResizeCasesTest {

    private static final InputKind KIND = InputKind.RESIZES;
    private static final String KEPT = "the pod keeps its CPUs and memory, the node state is unchanged; the condition"
            + " goes once the pod asks for what it holds or for what fits";

    /** The pod before the resize, and the resize, by case. */
    private record Resize(Pod before, UnaryOperator<Pod> resize) {}

    private static final Map<String, Resize> RESIZES = Map.of(
            "resize-past-numa-node",
            new Resize(budget("4"), p -> budget("70")),
            "resize-budget-to-fraction",
            new Resize(budget("4"), p -> budget("3500m")),
            "resize-slice-in-budget",
            new Resize(budget("4"), p -> withContainerCpu(p, "app", "2")),
            "resize-empties-pod-pool",
            new Resize(budget("4"), p -> budget("1")),
            "resize-shared-to-exclusive",
            new Resize(classic("500m"), p -> classic("2")));

    @TempDir
    Path stateDir;

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final FakePods pods = new FakePods();
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
                        "resize-past-numa-node",
                        KIND,
                        "a budget grown past what its NUMA node has free",
                        "budget 4 → 70 CPUs; a NUMA node has 64 under single-numa-node",
                        List.of(
                                warning(
                                        "TopologyAffinityError: pod churn/resized (uid 816eb967-8798-3f65-a39f-336c8da5e576) budget: cpu 4 → 70: 66 more CPUs on NUMA node(s) 0 under single-numa-node, 58 free there (122 on the node); it keeps 1-2,65-66"),
                                "condition churn/resized ResizePending TopologyAffinityError"),
                        KEPT),
                new BadInput(
                        "resize-budget-to-fraction",
                        KIND,
                        "a budget of whole CPUs resized to a fraction",
                        "budget 4 → 3500m",
                        List.of(
                                warning(
                                        "UnexpectedAdmissionError: pod churn/resized (uid 816eb967-8798-3f65-a39f-336c8da5e576) budget: cpu 4 → no whole CPUs: a budget of exclusive CPUs cannot become a shared one in place; recreate the pod; it keeps 1-2,65-66"),
                                "condition churn/resized ResizePending UnexpectedAdmissionError"),
                        KEPT),
                new BadInput(
                        "resize-slice-in-budget",
                        KIND,
                        "a container's own exclusive CPUs inside a budget resized",
                        "container app 1 → 2 CPUs in a budget of 4",
                        List.of(
                                warning(
                                        "UnexpectedAdmissionError: pod churn/resized (uid 816eb967-8798-3f65-a39f-336c8da5e576) budget: container app asks for 2 exclusive CPUs and holds 1: only the pod budget's CPUs resize in place, a container's own exclusive CPUs do not; it keeps 1-2,65-66"),
                                "condition churn/resized ResizePending UnexpectedAdmissionError"),
                        KEPT),
                new BadInput(
                        "resize-empties-pod-pool",
                        KIND,
                        "a budget shrunk below its slices and one CPU for its sharing containers",
                        "budget 4 → 1 with the app's 1-CPU slice and a sharing sidecar",
                        List.of(
                                warning(
                                        "EmptyPodSharedPoolError: pod churn/resized (uid 816eb967-8798-3f65-a39f-336c8da5e576) budget: cpu 4 → 1: the exclusive slices hold 1 CPUs and the pod shared pool 3, which its sharing containers need one of, so at most 2 can be given back; it keeps 1-2,65-66"),
                                "condition churn/resized ResizePending EmptyPodSharedPoolError"),
                        KEPT),
                new BadInput(
                        "resize-shared-to-exclusive",
                        KIND,
                        "a container on shared CPUs resized to whole CPUs",
                        "a Guaranteed pod's container app 500m → 2 CPUs",
                        List.of(
                                warning(
                                        "UnexpectedAdmissionError: pod churn/resized (uid 816eb967-8798-3f65-a39f-336c8da5e576) container app: cpu 0 → 2: a container on shared CPUs cannot take exclusive ones in place, nor give its exclusive CPUs up (whole CPUs with requests equal to limits hold exclusive CPUs); recreate the pod; it keeps the node's shared pool"),
                                "condition churn/resized ResizePending UnexpectedAdmissionError"),
                        KEPT));
    }

    private static String warning(String message) {
        return "pod churn/resized Warning ResizeInfeasible: " + message;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentRefusesAndThePodKeepsWhatItHolds(BadInput c) throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        agent = InMemoryAgent.twoSocketPodScope(topo, stateDir, pods)
                .withDevices(DeviceSource.NONE)
                .withEvents(new RecordingEvents(events))
                .started();
        Resize r = RESIZES.get(c.id());
        pods.put(r.before());
        agent.drain();
        NodeState before = agent.state();
        events.clear();

        pods.put(r.resize().apply(r.before()));
        agent.drain();

        c.assertAnswer(List.copyOf(events));
        assertThat(agent.state()).isEqualTo(before);
    }

    /** Kind 0 of the fixtures: a budget of {@code cpus}, a sharing sidecar and an app with one exclusive CPU. */
    private static Pod budget(String cpus) {
        return RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(0, "resized", "resized", cpus));
    }

    /** Kind 1: a Guaranteed pod placed per container, its app asking for {@code cpus}. */
    private static Pod classic(String cpus) {
        return RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(1, "resized", "resized", cpus));
    }

    private static Pod withContainerCpu(Pod pod, String container, String cpus) {
        Pod copy = new PodBuilder(pod).build();
        copy.getSpec().getContainers().stream()
                .filter(x -> x.getName().equals(container))
                .findFirst()
                .orElseThrow()
                .setResources(SamplePods.guaranteed(cpus, "256Mi"));
        return copy;
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
