package io.podnuma.agent.cgroup.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The order of partition writes, checked against the rules the 6.12 kernel applied on the guest node: an ancestor's
 * {@code cpuset.cpus.exclusive} always covers what is below it, siblings never list the same CPU, and the end is what
 * was wanted.
 */
class PartitionPlanTest {

    private static final CgroupPath KUBEPODS = CgroupPath.parse("kubepods");
    private static final CgroupPath POD_A = CgroupPath.parse("kubepods/pod-a");
    private static final CgroupPath POD_B = CgroupPath.parse("kubepods/pod-b");
    private static final CgroupPath CTR = CgroupPath.parse("kubepods/pod-c/ctr");

    private static PartitionStep.Exclusive exclusive(CgroupPath dir, String cpus) {
        return new PartitionStep.Exclusive(dir, cpus.isEmpty() ? CpuSet.empty() : CpuSet.parse(cpus));
    }

    private static PartitionStep.Partition partition(CgroupPath dir, PartitionType type) {
        return new PartitionStep.Partition(dir, type);
    }

    @Test
    void aNewPartitionIsListedByItsAncestorsFirst() {
        assertThat(PartitionPlan.between(
                        Map.of(), Map.of(), Map.of(POD_A, CpuSet.parse("6-7")), PartitionType.ISOLATED))
                .containsExactly(
                        exclusive(KUBEPODS, "6-7"), exclusive(POD_A, "6-7"), partition(POD_A, PartitionType.ISOLATED));
    }

    @Test
    void aPartitionThatGoesBecomesAMemberBeforeItsAncestorsLetGo() {
        assertThat(PartitionPlan.between(
                        Map.of(POD_A, CpuSet.parse("6-7")),
                        Map.of(KUBEPODS, CpuSet.parse("6-7")),
                        Map.of(),
                        PartitionType.ISOLATED))
                .containsExactly(partition(POD_A, PartitionType.MEMBER), exclusive(POD_A, ""), exclusive(KUBEPODS, ""));
    }

    @Test
    void aResizedPartitionChangesInPlace() {
        Map<CgroupPath, CpuSet> small = Map.of(POD_A, CpuSet.parse("6-7"));
        Map<CgroupPath, CpuSet> big = Map.of(POD_A, CpuSet.parse("5-7"));
        assertThat(PartitionPlan.between(small, Map.of(KUBEPODS, CpuSet.parse("6-7")), big, PartitionType.ROOT))
                .containsExactly(exclusive(KUBEPODS, "5-7"), exclusive(POD_A, "5-7"));
        assertThat(PartitionPlan.between(big, Map.of(KUBEPODS, CpuSet.parse("5-7")), small, PartitionType.ROOT))
                .containsExactly(exclusive(POD_A, "6-7"), exclusive(KUBEPODS, "6-7"));
    }

    @Test
    void cpusMovingBetweenPodsLeaveOneBeforeTheOtherTakesThem() {
        assertThat(PartitionPlan.between(
                        Map.of(POD_A, CpuSet.parse("6-7")),
                        Map.of(KUBEPODS, CpuSet.parse("6-7")),
                        Map.of(POD_B, CpuSet.parse("6-7")),
                        PartitionType.ISOLATED))
                .containsExactly(
                        partition(POD_A, PartitionType.MEMBER),
                        exclusive(POD_A, ""),
                        exclusive(POD_B, "6-7"),
                        partition(POD_B, PartitionType.ISOLATED));
    }

    @Test
    void aContainerPartitionIsListedByItsPodAndKubepods() {
        assertThat(PartitionPlan.between(Map.of(), Map.of(), Map.of(CTR, CpuSet.of(4)), PartitionType.ISOLATED))
                .containsExactly(
                        exclusive(KUBEPODS, "4"),
                        exclusive(CgroupPath.parse("kubepods/pod-c"), "4"),
                        exclusive(CTR, "4"),
                        partition(CTR, PartitionType.ISOLATED));
    }

    @Test
    void nothingChangedWritesNothingAndMemberIsNotAWantedType() {
        Map<CgroupPath, CpuSet> held = Map.of(POD_A, CpuSet.parse("6-7"), CTR, CpuSet.of(4));
        assertThat(PartitionPlan.between(held, PartitionPlan.ancestorsOf(held), held, PartitionType.ISOLATED))
                .isEmpty();
        assertThatThrownBy(() -> PartitionPlan.between(Map.of(), Map.of(), held, PartitionType.MEMBER))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyStepOfRandomChangesKeepsTheKernelsRulesAndEndsAsWanted() throws Exception {
        Random random = new Random(33);
        List<CgroupPath> dirs = List.of(POD_A, POD_B, CTR, CgroupPath.parse("kubepods/burstable/pod-d"));
        KernelPartitions kernel = new KernelPartitions();
        for (int round = 0; round < 2_000; round++) {
            Map<CgroupPath, CpuSet> wanted = new HashMap<>();
            CpuSet free = CpuSet.parse("1-15");
            for (CgroupPath dir : dirs) {
                if (random.nextBoolean()) {
                    CpuSet.Builder b = CpuSet.builder();
                    for (int cpu : free.toArray()) {
                        if (random.nextInt(4) == 0) {
                            b.add(cpu);
                        }
                    }
                    CpuSet cpus = b.build();
                    if (!cpus.isEmpty()) {
                        wanted.put(dir, cpus);
                        free = free.difference(cpus);
                    }
                }
            }
            Map<CgroupPath, CpuSet> held = kernel.inForce();
            Map<CgroupPath, CpuSet> ancestors = new HashMap<>(kernel.exclusiveLists());
            ancestors.keySet().removeAll(held.keySet());
            for (PartitionStep step : PartitionPlan.between(held, ancestors, wanted, PartitionType.ISOLATED)) {
                kernel.write(step); // the kernel's rules broken: "Invalid argument"
                assertThat(kernel.types().keySet())
                        .allMatch(dir -> kernel.read(dir).orElseThrow().inForce());
            }
            assertThat(kernel.inForce()).as("round %d", round).isEqualTo(wanted);
            Map<CgroupPath, CpuSet> listed = new HashMap<>(kernel.exclusiveLists());
            listed.keySet().removeAll(wanted.keySet());
            assertThat(listed).isEqualTo(PartitionPlan.ancestorsOf(wanted));
        }
    }
}
