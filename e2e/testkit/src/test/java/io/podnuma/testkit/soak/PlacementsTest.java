package io.podnuma.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.testkit.cpu.CpuList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class PlacementsTest {

    static final String UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";

    /** The checkpoint's facts of a budgeted pod: bubble {1}, engine exclusive on 1, proxy on the pod's pool. */
    static Map<String, SortedMap<String, String>> checkpoint(String engineCpus) {
        return Map.of(
                UID,
                new Placements.Pod()
                        .bubble(CpuList.of(1))
                        .container("engine", true, CpuList.parse(engineCpus), List.of(0))
                        .container("proxy", false, CpuList.of(1), List.of(0))
                        .facts());
    }

    static PodAllocation allocation(String engineCpus, List<Integer> proxyMems) {
        return new PodAllocation(
                "ns",
                "p",
                UID,
                "1",
                List.of(0),
                null,
                List.of(
                        new ContainerAllocation("engine", AssignmentType.EXCLUSIVE, engineCpus, List.of(0), null),
                        new ContainerAllocation("proxy", AssignmentType.POD_SHARED, "1", proxyMems, null),
                        new ContainerAllocation("sidecar", AssignmentType.NODE_SHARED, "0", null, null)));
    }

    static PodResources answer(long engineCpu) {
        return PodResources.newBuilder()
                .setNamespace("ns")
                .setName("p")
                .addCpuIds(1)
                .addContainers(ContainerResources.newBuilder().setName("engine").addCpuIds(engineCpu))
                .addContainers(ContainerResources.newBuilder().setName("proxy"))
                .build();
    }

    @Test
    void recordsThatPlaceEveryContainerAsTheCheckpointDoesAgree() {
        var nns = Placements.ofNumaNodeState(List.of(allocation("1", List.of(0))));
        var pr = Placements.ofPodResources(List.of(answer(1)), Map.of("ns/p", UID));
        assertThat(Placements.disagreements(
                        checkpoint("1"), Map.of(Record.NUMA_NODE_STATE, nns, Record.POD_RESOURCES, pr), Set.of(UID)))
                .isEmpty();
    }

    @Test
    void aContainerOnOtherCpusOrMemoryNodesInOneRecordIsADisagreementNamingBothVersions() {
        // The same pods in every record: a check by pod names alone passes this.
        var nns = Placements.ofNumaNodeState(List.of(allocation("1", List.of(1))));
        var pr = Placements.ofPodResources(List.of(answer(0)), Map.of("ns/p", UID));
        List<Violation> found = Placements.disagreements(
                checkpoint("1"), Map.of(Record.NUMA_NODE_STATE, nns, Record.POD_RESOURCES, pr), Set.of(UID));
        assertThat(found).extracting(Violation::kind).containsOnly(ViolationKind.PLACEMENT_DISAGREES);
        assertThat(found)
                .extracting(Violation::detail)
                .containsExactly(
                        "NUMA_NODE_STATE says {proxy mems=[1]}, the checkpoint {proxy mems=[0]}",
                        "POD_RESOURCES says {engine exclusive=0}, the checkpoint {engine exclusive=1}");
    }

    @Test
    void aPodOfADifferentLiveSetIsNotCompared() {
        var nns = Placements.ofNumaNodeState(List.of(allocation("0", List.of(0))));
        assertThat(Placements.disagreements(checkpoint("1"), Map.of(Record.NUMA_NODE_STATE, nns), Set.of()))
                .isEmpty();
    }

    @Test
    void aPinnedPodThatLivesOnMustKeepEveryFact() {
        var before = checkpoint("1");
        assertThat(Placements.changed(before, checkpoint("1"), Set.of(UID))).isEmpty();
        assertThat(Placements.changed(before, checkpoint("0"), Set.of(UID)))
                .containsExactly(Map.entry(
                        UID, "was {engine cpus=1, engine exclusive=1}, now {engine cpus=0, engine" + " exclusive=0}"));
        // Unpinned after: every fact gone.
        assertThat(Placements.changed(before, Map.of(), Set.of(UID))).containsKey(UID);
        // Deleted meanwhile: not a change.
        assertThat(Placements.changed(before, Map.of(), Set.of())).isEmpty();
    }

    @Test
    void onlyTheFaultsThatReleaseOrRebuildThePinsMayMoveThem() {
        assertThat(List.of(FaultKind.values()).stream().filter(FaultKind::mayMovePins))
                .containsExactlyInAnyOrder(
                        FaultKind.CHECKPOINT_TRUNCATED,
                        FaultKind.TOPOLOGY_CHANGE,
                        FaultKind.NODE_LABEL_REMOVED,
                        FaultKind.POLICY_DELETED);
    }

    @Test
    void aChangeTheFaultExplainsIsCountedTheOthersFail() {
        SoakTally t = new SoakTally();
        assertThat(Placements.acrossFault(FaultKind.AGENT_KILL9, checkpoint("1"), checkpoint("0"), Set.of(UID), t))
                .extracting(Violation::kind)
                .containsExactly(ViolationKind.PLACEMENT_CHANGED);
        assertThat(Placements.acrossFault(
                        FaultKind.CHECKPOINT_TRUNCATED, checkpoint("1"), checkpoint("0"), Set.of(UID), t))
                .isEmpty();
        assertThat(t.render()).contains("checkpoint_truncated: was {engine cpus=1");
    }
}
