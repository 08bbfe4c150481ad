package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.partition.PartitionFiles;
import io.podnuma.agent.cgroup.partition.PartitionStep;
import io.podnuma.agent.cgroup.partition.PartitionType;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpuManager.partition} on the in-memory agent over a model of the kernel's partition rules: a pod budget's pod
 * cgroup, or a container with exclusive CPUs, becomes a partition once its containers hold their CPUs; it goes with
 * its pod, is undone by a policy without partitions; a slice the kernel refuses, or a node that cannot have
 * partitions, keeps its CPUs exclusive by cpuset with a Warning and the {@code Partitioned} condition.
 */
class NodeAgentPartitionTest {

    @TempDir
    Path stateDir;

    private PartitionedNode node;

    @BeforeEach
    void node() throws Exception {
        node = new PartitionedNode(stateDir);
    }

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void aBudgetsPodCgroupBecomesAnIsolatedPartitionOfTheWholeBudgetAndGoesWithItsPod() throws Exception {
        Pod p = node.running(PartitionedNode.budget("trader", "4"));
        NodeAgent agent = node.agent(node.kernel, Optional.of(PartitionType.ISOLATED));
        CpuSet bubble = agent.state().pods().get(p.getMetadata().getUid()).bubble();

        assertThat(bubble.size()).isEqualTo(4);
        assertThat(node.kernel.inForce()).isEqualTo(Map.of(node.podDir(p), bubble));
        assertThat(node.kernel.types()).isEqualTo(Map.of(node.podDir(p), PartitionType.ISOLATED));
        assertThat(node.kernel.exclusiveLists()).containsEntry(PartitionedNode.KUBEPODS, bubble);
        assertThat(node.cgroups.actual.get(node.appDir(p)).cpus().isSubsetOf(bubble))
                .isTrue();
        agent.reconcileNow();
        assertThat(node.partitioned()).startsWith("True PartitionsInForce: ");
        assertThat(node.metrics.scrape()).contains("podnuma_cpuset_partitions 1.0");

        int writes = node.kernel.written().size();
        agent.reconcileNow();
        assertThat(node.kernel.written()).as("nothing changed: nothing written").hasSize(writes);

        node.gone(p);
        agent.reconcileNow();
        assertThat(node.kernel.inForce()).isEmpty();
        assertThat(node.kernel.exclusiveLists())
                .as("kubepods lists nothing any more")
                .isEmpty();
        assertThat(node.metrics.scrape()).contains("podnuma_cpuset_partitions 0.0");
    }

    @Test
    void aGrownBudgetsPartitionGrowsBeforeItsContainersAndAShrunkOneAfter() throws Exception {
        // Kind 0 of the fixtures: a budget, a sharing sidecar and an app with one exclusive CPU; resized as the
        // kubelet allocates it.
        Pod before = node.running(RuntimeFixtures.podOfKind(0, "resized", "resized", "4"));
        NodeAgent agent = node.agent(node.kernel, Optional.of(PartitionType.ISOLATED));
        String uid = before.getMetadata().getUid();
        CgroupPath podDir = node.podDir(before);
        assertThat(node.kernel.inForce())
                .containsEntry(podDir, agent.state().pods().get(uid).bubble());
        List<String> outside = new ArrayList<>();
        // The kernel keeps a container's effective CPUs inside its partition: a write past it would not take.
        node.cgroups.beforeWrite = (path, pin) -> {
            CpuSet partition = node.kernel.inForce().get(path.parent());
            if (path.parent().equals(podDir) && partition != null && !pin.cpus().isSubsetOf(partition)) {
                outside.add(path + " " + pin.cpus() + " in " + partition);
            }
        };

        node.pods.put(RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(0, "resized", "resized", "6")));
        agent.drain();
        CpuSet grown = agent.state().pods().get(uid).bubble();
        assertThat(grown.size()).isEqualTo(6);
        assertThat(node.kernel.inForce()).containsEntry(podDir, grown);

        node.pods.put(RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(0, "resized", "resized", "4")));
        agent.drain();
        assertThat(node.kernel.inForce())
                .containsEntry(podDir, agent.state().pods().get(uid).bubble());
        assertThat(outside).as("container writes outside their partition").isEmpty();
    }

    @Test
    void aGuaranteedContainersExclusiveCpusBecomeARootPartitionListedByItsPod() throws Exception {
        Pod p = node.running(PartitionedNode.perContainer("solo"));
        NodeAgent agent = node.agent(node.kernel, Optional.of(PartitionType.ROOT));
        CpuSet cpus = agent.state()
                .pods()
                .get(p.getMetadata().getUid())
                .container("app")
                .orElseThrow()
                .cpus();

        assertThat(cpus.size()).isEqualTo(2);
        assertThat(node.kernel.inForce()).isEqualTo(Map.of(node.appDir(p), cpus));
        assertThat(node.kernel.types()).isEqualTo(Map.of(node.appDir(p), PartitionType.ROOT));
        assertThat(node.kernel.exclusiveLists())
                .containsEntry(node.podDir(p), cpus)
                .containsEntry(PartitionedNode.KUBEPODS, cpus);
    }

    @Test
    void aSliceTheKernelRefusesStaysExclusiveByCpusetWithAWarningAndIsNotTriedAgain() throws Exception {
        Pod p = node.running(PartitionedNode.budget("trader", "4"));
        node.kernel.refuse(node.podDir(p), "Cpu list in cpuset.cpus not exclusive");
        NodeAgent agent = node.agent(node.kernel, Optional.of(PartitionType.ISOLATED));
        CpuSet bubble = agent.state().pods().get(p.getMetadata().getUid()).bubble();

        assertThat(node.kernel.inForce()).isEmpty();
        assertThat(node.kernel.types()).as("undone: a member again").isEmpty();
        assertThat(node.kernel.exclusiveLists()).isEmpty();
        assertThat(node.cgroups.actual.get(node.appDir(p)).cpus().isSubsetOf(bubble))
                .as("the pod keeps its CPUs")
                .isTrue();
        assertThat(node.events)
                .contains("pod unit/trader Warning PartitionRefused: pod unit/trader: cgroup " + node.podDir(p)
                        + " could not be made an isolated partition of CPUs " + bubble
                        + " (the kernel reports it \"isolated invalid (Cpu list in cpuset.cpus not exclusive)\");"
                        + " its CPUs stay exclusive by their cpusets alone");
        agent.reconcileNow();
        assertThat(node.partitioned()).startsWith("False PartitionRefused: ");
        assertThat(node.metrics.scrape()).contains("podnuma_cpuset_partitions_refused_total 1.0");

        int writes = node.kernel.written().size();
        agent.reconcileNow();
        agent.reconcileNow();
        assertThat(node.kernel.written())
                .as("not tried again while its CPUs stay")
                .hasSize(writes);
        assertThat(node.events.stream()
                        .filter(e -> e.contains("PartitionRefused"))
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aRefusedListHoldsBackOnlyThePartitionsBelowIt() throws Exception {
        Pod solo = node.running(PartitionedNode.perContainer("solo"));
        Pod trader = node.running(PartitionedNode.budget("trader", "4"));
        // The kernel refuses solo's pod cgroup its list: solo's container below it is refused, trader is not.
        node.kernel.failWrites(node.podDir(solo), "Device or resource busy");
        NodeAgent agent = node.agent(node.kernel, Optional.of(PartitionType.ISOLATED));
        agent.reconcileNow();

        CpuSet bubble = agent.state().pods().get(trader.getMetadata().getUid()).bubble();
        assertThat(node.kernel.inForce()).isEqualTo(Map.of(node.podDir(trader), bubble));
        assertThat(node.events.stream().filter(e -> e.contains("PartitionRefused")))
                .singleElement()
                .asString()
                .startsWith("pod unit/solo Warning PartitionRefused: container app of pod unit/solo: cgroup "
                        + node.appDir(solo));
    }

    @Test
    void aNodeWithoutPartitionsSaysSoOnceAndPinsAsBefore() throws Exception {
        Pod p = node.running(PartitionedNode.budget("trader", "4"));
        NodeAgent agent = node.agent(
                PartitionFiles.none("the node runs cgroup v1; cpuset partitions are cgroup v2's"),
                Optional.of(PartitionType.ISOLATED));
        agent.reconcileNow();

        assertThat(agent.state().pods().get(p.getMetadata().getUid()).bubble().size())
                .isEqualTo(4);
        assertThat(node.events)
                .containsOnlyOnce("node Warning PartitionsUnsupported: cpuManager.partition isolated: the node runs"
                        + " cgroup v1; cpuset partitions are cgroup v2's; exclusive slices stay exclusive by their"
                        + " cpusets alone");
        assertThat(node.partitioned()).startsWith("False PartitionsUnsupported: ");
    }

    @Test
    void partitionsAnEarlierAgentLeftAreUndoneByAPolicyWithoutThem() throws Exception {
        Pod p = RuntimeFixtures.withStatus(PartitionedNode.budget("trader", "4"));
        node.kernel.leave(node.podDir(p), PartitionType.ISOLATED, CpuSet.parse("4-7"));
        node.agent(node.kernel, Optional.empty());

        assertThat(node.kernel.types()).isEmpty();
        assertThat(node.kernel.exclusiveLists()).isEmpty();
        assertThat(node.lastReport.get().node().conditions())
                .noneMatch(c -> c.getType().equals("Partitioned"));
        assertThat(node.kernel.written())
                .containsExactly(
                        new PartitionStep.Partition(node.podDir(p), PartitionType.MEMBER),
                        new PartitionStep.Exclusive(node.podDir(p), CpuSet.empty()),
                        new PartitionStep.Exclusive(PartitionedNode.KUBEPODS, CpuSet.empty()));
    }
}
