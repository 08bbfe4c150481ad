package io.podnuma.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.crds.v1alpha1.Formats;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.HugePages;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.NumaDistance;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.crds.v1alpha1.nodestate.Socket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeStateRendererTest {

    private static PodAllocation allocation(NumaNodeStateStatus status, String uid) {
        return status.allocations().stream()
                .filter(a -> a.uid().equals(uid))
                .findFirst()
                .orElseThrow();
    }

    private static ContainerAllocation container(PodAllocation pod, String name) {
        return pod.containers().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theObjectIsNamedAfterTheNodeAndCarriesConfigConditionsAndLastError() {
        NumaNodeState object = NodeStateRenderer.render(ReportFixtures.report("node-7", ReportFixtures.empty()));

        assertThat(object.getMetadata().getName()).isEqualTo("node-7");
        assertThat(object.getSpec().nodeName()).isEqualTo("node-7");
        NumaNodeStateStatus status = object.getStatus();
        assertThat(status.policy()).isEqualTo("tenant-a");
        assertThat(status.configHash()).isEqualTo(ReportFixtures.CONFIG_HASH);
        assertThat(status.reservedCpus()).isEqualTo("0,6");
        // The reserved CPUs stay in the shared pool (as the kubelet's default set): only exclusive CPUs leave it.
        assertThat(status.sharedPool()).isEqualTo("0-11");
        assertThat(status.exclusiveCpus()).isZero();
        assertThat(status.allocations()).isEmpty();
        assertThat(status.conditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-29T10:00:00Z");
        });
        assertThat(status.lastError().reason()).isEqualTo("CgroupWriteFailed");
    }

    @Test
    void absentPolicyAndErrorAreLeftOut() {
        NodeReport r = ReportFixtures.report("n", ReportFixtures.empty());
        NodeReport bare = new NodeReport(
                r.nodeName(),
                r.topology(),
                r.state(),
                Optional.empty(),
                r.configHash(),
                CpuSet.empty(),
                List.of(),
                Optional.empty());

        NumaNodeStateStatus status = NodeStateRenderer.render(bare).getStatus();

        assertThat(status.policy()).isNull();
        assertThat(status.lastError()).isNull();
        assertThat(status.reservedCpus()).isEmpty();
        assertThat(CanonicalForm.of(NodeStateRenderer.render(bare)))
                .doesNotContain("\"policy\"")
                .doesNotContain("lastError");
    }

    @Test
    void topologyListsSocketsNodesMemoryHugepagesDistancesAndCaches() {
        NodeTopology t = NodeStateRenderer.render(ReportFixtures.report("n", ReportFixtures.empty()))
                .getStatus()
                .topology();

        assertThat(t.cpuCount()).isEqualTo(12);
        assertThat(t.numaNodeCount()).isEqualTo(2);
        assertThat(t.threadsPerCore()).isEqualTo(2);
        assertThat(t.sockets())
                .containsExactly(new Socket(0, "0,2,4,6,8,10", List.of(0)), new Socket(1, "1,3,5,7,9,11", List.of(1)));
        assertThat(t.numaNodes().get(0).cpus()).isEqualTo("0,2,4,6,8,10");
        assertThat(t.numaNodes().get(0).memory()).isEqualTo(new Quantity("16Gi"));
        assertThat(t.numaNodes().get(0).hugepages())
                .containsExactly(new HugePages("2Mi", new Quantity("1Gi")), new HugePages("1Gi", new Quantity("2Gi")));
        assertThat(t.numaNodes().get(1).hugepages()).isNull();
        assertThat(t.numaNodes().get(1).distances()).containsExactly(new NumaDistance(0, 21), new NumaDistance(1, 10));
        assertThat(t.l3Groups())
                .singleElement()
                .satisfies(g -> assertThat(g.cpus()).isEqualTo("0-11"));
    }

    @Test
    void podsAreReportedFromTheEngineState() {
        NodeState state = ReportFixtures.state(true);
        PodAssignment bubble = state.pod(ReportFixtures.BUBBLE_UID).orElseThrow();
        PodAssignment plain = state.pod(ReportFixtures.PLAIN_UID).orElseThrow();

        NumaNodeStateStatus status =
                NodeStateRenderer.render(ReportFixtures.report("n", state)).getStatus();

        assertThat(status.sharedPool()).isEqualTo(state.sharedPool().toString());
        assertThat(status.exclusiveCpus()).isEqualTo(6); // the 4-CPU bubble and plain's 2 CPUs
        assertThat(status.allocations())
                .extracting(PodAllocation::uid)
                .containsExactly(ReportFixtures.BUBBLE_UID, ReportFixtures.PLAIN_UID);

        PodAllocation b = allocation(status, ReportFixtures.BUBBLE_UID);
        assertThat(b.namespace()).isEqualTo("team-a");
        assertThat(b.name()).isEqualTo("bubble");
        assertThat(CpuSet.parse(b.cpus())).isEqualTo(bubble.bubble());
        assertThat(CpuSet.parse(b.cpus()).size()).isEqualTo(4);
        assertThat(b.numaNodes()).hasSize(1);
        assertThat(b.memory()).containsEntry("memory", new Quantity("1Gi"));
        ContainerAllocation main = container(b, "main");
        assertThat(main.assignment()).isEqualTo(AssignmentType.EXCLUSIVE);
        assertThat(CpuSet.parse(main.cpus()).size()).isEqualTo(2);
        assertThat(CpuSet.parse(main.cpus()).isSubsetOf(bubble.bubble())).isTrue();
        ContainerAllocation log = container(b, "log");
        assertThat(log.assignment()).isEqualTo(AssignmentType.POD_SHARED);
        assertThat(CpuSet.parse(log.cpus())).isEqualTo(bubble.podSharedPool());
        assertThat(log.numaNodes()).isEqualTo(b.numaNodes());

        PodAllocation p = allocation(status, ReportFixtures.PLAIN_UID);
        assertThat(p.cpus()).as("no bubble without a pod budget").isNull();
        ContainerAllocation app = container(p, "app");
        assertThat(app.assignment()).isEqualTo(AssignmentType.EXCLUSIVE);
        assertThat(CpuSet.parse(app.cpus())).isEqualTo(plain.exclusiveCpus());
        assertThat(app.memory()).isEqualTo(Map.of("memory", new Quantity("1Gi")));
        assertThat(CpuSet.parse(app.cpus()).intersects(state.sharedPool())).isFalse();
    }

    @Test
    void everyCpuListMatchesTheCrdFormat() {
        NumaNodeStateStatus status = NodeStateRenderer.render(ReportFixtures.report("n", ReportFixtures.state(true)))
                .getStatus();

        List<String> lists = new java.util.ArrayList<>(List.of(status.sharedPool(), status.reservedCpus()));
        status.allocations().forEach(a -> {
            if (a.cpus() != null) {
                lists.add(a.cpus());
            }
            a.containers().forEach(c -> lists.add(c.cpus()));
        });
        status.topology().numaNodes().forEach(n -> lists.add(n.cpus()));
        assertThat(lists).allMatch(s -> s.matches(Formats.CPU_LIST_OR_EMPTY_REGEX), "a CPU list");
        assertThat(status.allocations()).allMatch(a -> a.uid().matches(Formats.UID_REGEX));
    }

    @Test
    void theSameReportRendersTheSameCanonicalFormAndAChangeShowsInIt() {
        String first =
                CanonicalForm.of(NodeStateRenderer.render(ReportFixtures.report("n", ReportFixtures.state(true))));
        String again =
                CanonicalForm.of(NodeStateRenderer.render(ReportFixtures.report("n", ReportFixtures.state(true))));
        String fewer =
                CanonicalForm.of(NodeStateRenderer.render(ReportFixtures.report("n", ReportFixtures.state(false))));

        assertThat(again).isEqualTo(first);
        assertThat(fewer).isNotEqualTo(first);
    }

    @Test
    void quantitiesUseTheLargestExactBinarySuffix() {
        assertThat(NodeStateRenderer.bytes(0)).isEqualTo(new Quantity("0"));
        assertThat(NodeStateRenderer.bytes(1000).toString()).isEqualTo("1000");
        assertThat(NodeStateRenderer.bytes(3L << 20).toString()).isEqualTo("3Mi");
        assertThat(NodeStateRenderer.bytes(1536L << 20).toString()).isEqualTo("1536Mi");
        assertThat(NodeStateRenderer.pageSize(2048)).isEqualTo("2Mi");
        assertThat(NodeStateRenderer.pageSize(1048576)).isEqualTo("1Gi");
        assertThat(NodeStateRenderer.pageSize(64)).isEqualTo("64Ki");
    }
}
