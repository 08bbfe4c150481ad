package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.podresources.DeviceAssignments;
import io.podnuma.agent.podresources.DeviceSource;
import io.podnuma.agent.podresources.PodResourcesAnswers;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A budget resized in place on the in-memory agent (2-socket fixture, single-numa-node, pod scope): the agent keeps
 * the pod's CPUs, adds or gives back the difference, tells it in an Event, and a resize it cannot do in place leaves
 * the pod as it was with a Warning and its {@code podnuma.io/ResizePending} condition; a resize made while no agent ran
 * is done when the agent is back.
 */
class NodeAgentResizeTest {

    @TempDir
    Path stateDir;

    private final FakePods pods = new FakePods();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private CpuTopology topo;
    private AgentMetrics metrics;
    private NodeAgent agent;

    @BeforeEach
    void start() throws Exception {
        topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        metrics = new AgentMetrics(topo);
        agent = agentOnTheStateDir();
    }

    private NodeAgent agentOnTheStateDir() throws Exception {
        return InMemoryAgent.twoSocketPodScope(topo, stateDir, pods)
                .withDevices(DeviceSource.NONE)
                .withEvents(new RecordingEvents(events))
                .withMetrics(metrics)
                .started();
    }

    @AfterEach
    void close() {
        agent.close();
    }

    /** Kind 0 of the fixtures: a budget of {@code cpus}, a sharing sidecar and an app with one exclusive CPU. */
    private static Pod budget(String cpus) {
        return RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(0, "resized", "resized", cpus));
    }

    /** What the agent holds for {@code pod} once it has heard of it. */
    private PodAssignment heldAfter(Pod pod) {
        pods.put(pod);
        agent.drain();
        return agent.state().pods().get(pod.getMetadata().getUid());
    }

    @Test
    void aBudgetGrowsAndShrinksInPlaceKeepingItsCpus() {
        PodAssignment before = heldAfter(budget("4"));
        assertThat(before.bubble().size()).isEqualTo(4);

        PodAssignment grown = heldAfter(budget("6"));
        assertThat(grown.bubble().size()).isEqualTo(6);
        assertThat(before.bubble().isSubsetOf(grown.bubble()))
                .as("kept what it held")
                .isTrue();
        assertThat(topo.numaNodesOf(grown.bubble())).isEqualTo(topo.numaNodesOf(before.bubble()));
        assertThat(grown.container("app").orElseThrow().cpus())
                .isEqualTo(before.container("app").orElseThrow().cpus());
        assertThat(agent.state().sharedPool().intersects(grown.bubble())).isFalse();

        var listed = PodResourcesAnswers.list(agent.snapshot(), DeviceAssignments.NONE).getPodResourcesList().stream()
                .filter(p -> p.getName().equals("resized"))
                .findFirst()
                .orElseThrow();
        assertThat(CpuSet.of(
                        listed.getCpuIdsList().stream().mapToInt(Long::intValue).toArray()))
                .as("PodResources: the pod's cpu_ids")
                .isEqualTo(grown.bubble());

        PodAssignment shrunk = heldAfter(budget("3"));
        assertThat(shrunk.bubble().size()).isEqualTo(3);
        assertThat(shrunk.bubble().isSubsetOf(grown.bubble())).isTrue();
        assertThat(shrunk.container("app").orElseThrow().cpus())
                .isEqualTo(before.container("app").orElseThrow().cpus());

        CpuSet added = grown.bubble().difference(before.bubble());
        CpuSet returned = grown.bubble().difference(shrunk.bubble());
        assertThat(events.stream()
                        .filter(e -> e.contains(" ResourcesResized: "))
                        .toList())
                .containsExactly(
                        "pod churn/resized Normal ResourcesResized: budget 4 → 6 CPUs in place: added " + added
                                + ", kept the rest; now " + grown.bubble(),
                        "pod churn/resized Normal ResourcesResized: budget 6 → 3 CPUs in place: gave back " + returned
                                + ", kept the rest; now " + shrunk.bubble());
        assertThat(metrics.scrape())
                .contains("podnuma_pod_resizes_total{result=\"resized\"} 2.0")
                .contains("podnuma_pod_resize_duration_seconds_count 2");
    }

    @Test
    void aBudgetThatCannotGrowInPlaceKeepsWhatItHoldsWithAWarning() {
        PodAssignment before = heldAfter(budget("4"));

        // A NUMA node of the fixture has 64 CPUs.
        assertThat(heldAfter(budget("70"))).isEqualTo(before);
        assertThat(events.stream()
                        .filter(e -> e.contains(" ResizeInfeasible: "))
                        .toList())
                .singleElement()
                .asString()
                .startsWith("pod churn/resized Warning ResizeInfeasible: TopologyAffinityError: pod churn/resized")
                .contains("budget: cpu 4 → 70: 66 more CPUs on NUMA node(s) ")
                .endsWith("; it keeps " + before.bubble());
        assertThat(events).contains("condition churn/resized ResizePending TopologyAffinityError");
        int said = events.size();
        Pod restarted = budget("70");
        // The app container restarted: a new container ID, the pod record changes, the spec does not.
        restarted.getStatus().getContainerStatuses().getFirst().setContainerID("containerd://" + "f".repeat(64));
        assertThat(heldAfter(restarted)).isEqualTo(before);
        assertThat(events)
                .as("the same refusal, the pod changed otherwise: not said again")
                .hasSize(said);

        assertThat(heldAfter(budget("4"))).as("asked back to what it holds").isEqualTo(before);
        assertThat(events.getLast()).isEqualTo("condition churn/resized ResizePending removed");
    }

    @Test
    void aBudgetResizedWhileTheAgentWasAwayIsResizedInPlaceWhenItComesBack() throws Exception {
        PodAssignment before = heldAfter(budget("4"));
        agent.close();
        pods.put(budget("6"));
        events.clear();

        agent = agentOnTheStateDir();
        agent.drain();
        PodAssignment after = agent.state().pods().get(before.ref().uid());
        assertThat(after.bubble().size()).isEqualTo(6);
        assertThat(before.bubble().isSubsetOf(after.bubble()))
                .as("the checkpoint's CPUs kept")
                .isTrue();
        assertThat(after.container("app").orElseThrow().cpus())
                .isEqualTo(before.container("app").orElseThrow().cpus());
        assertThat(events)
                .contains("pod churn/resized Normal ResourcesResized: budget 4 → 6 CPUs in place: added "
                        + after.bubble().difference(before.bubble()) + ", kept the rest; now " + after.bubble());
    }

    @Test
    void aResizeTheKubeletHasNotAllocatedIsFollowedOnlyOnceItHas() {
        PodAssignment before = heldAfter(budget("4"));
        Pod asked = budget("6");
        // The kubelet still reports the old budget as allocated: it deferred the resize, or has not taken it yet.
        asked.getStatus().setAdditionalProperty("allocatedResources", Map.of("cpu", "4", "memory", "1Gi"));
        assertThat(heldAfter(asked)).as("not ahead of the kubelet").isEqualTo(before);
        assertThat(events).noneMatch(e -> e.contains("Resize"));

        asked.getStatus().setAdditionalProperty("allocatedResources", Map.of("cpu", "6", "memory", "1Gi"));
        PodAssignment grown = heldAfter(asked);
        assertThat(grown.bubble().size()).isEqualTo(6);
        assertThat(before.bubble().isSubsetOf(grown.bubble())).isTrue();
    }
}
