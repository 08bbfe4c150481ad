package io.podnuma.testkit.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.cpu.CpuList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InvariantsTest {

    static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    static final Duration WINDOW = Duration.ofSeconds(2);

    static ContainerSample c(String pod, String name, String cpuset, String... affinities) {
        return new ContainerSample(
                pod,
                name,
                pod + name + "-id",
                CpuList.parse(cpuset),
                Stream.of(affinities).map(CpuList::parse).toList());
    }

    static Snapshot snap(List<ContainerSample> cs, Map<String, CpuList> exclusive) {
        return new Snapshot(T0, cs, exclusive, Optional.of(T0), Set.of("a", "b"), Map.of(), Set.of());
    }

    static Stream<Arguments> samples() {
        CpuList one = CpuList.of(1);
        return Stream.of(
                Arguments.of(
                        "clean: a on 1, b on the shared 0",
                        snap(List.of(c("a", "w", "1", "1"), c("b", "w", "0", "0")), Map.of("a/w", one)),
                        List.of()),
                Arguments.of(
                        "clean: nobody exclusive, everyone everywhere",
                        snap(List.of(c("a", "w", "0-1", "0-1"), c("b", "w", "0-1")), Map.of()),
                        List.of()),
                Arguments.of(
                        "clean: a bubble pod's two containers share its CPU",
                        snap(List.of(c("a", "s", "1", "1"), c("a", "w", "1", "1")), Map.of("a/s", one, "a/w", one)),
                        List.of()),
                Arguments.of(
                        "the checkpoint gives CPU 1 to two pods",
                        snap(List.of(), Map.of("a/w", one, "b/w", one)),
                        List.of(ViolationKind.CPU_EXCLUSIVE_TO_TWO)),
                Arguments.of(
                        "two pods' cgroups confined to CPU 1",
                        snap(List.of(c("a", "w", "1"), c("b", "w", "1")), Map.of("a/w", one, "b/w", CpuList.of(1))),
                        List.of(ViolationKind.CPU_EXCLUSIVE_TO_TWO, ViolationKind.CPU_EXCLUSIVE_TO_TWO)),
                Arguments.of(
                        "a process confined where its cgroup is not",
                        snap(List.of(c("a", "w", "0-1", "1"), c("b", "w", "1")), Map.of("a/w", one, "b/x", one)),
                        List.of(ViolationKind.CPU_EXCLUSIVE_TO_TWO, ViolationKind.CPU_EXCLUSIVE_TO_TWO)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void exclusiveToTwo(String name, Snapshot s, List<ViolationKind> expected) {
        assertThat(Invariants.exclusiveToTwo(s).stream().map(Violation::kind).toList())
                .isEqualTo(expected);
    }

    static Stream<Arguments> windows() {
        return Stream.of(
                // exclusive container, off by cgroup / by affinity / on it; how long off; whether it could pin
                Arguments.of("exclusive on its set", c("a", "w", "1", "1"), 10_000, true, false),
                Arguments.of("exclusive cgroup wide, within the window", c("a", "w", "0-1", "0-1"), 1_500, true, false),
                Arguments.of("exclusive cgroup wide, past the window", c("a", "w", "0-1", "0-1"), 2_500, true, true),
                Arguments.of("exclusive process wide, past the window", c("a", "w", "1", "0-1"), 2_500, true, true),
                Arguments.of("exclusive wide for long, agent unable", c("a", "w", "0-1"), 60_000, false, false),
                Arguments.of("other pod on CPU 1, past the window", c("b", "w", "0-1", "0-1"), 2_500, true, true),
                Arguments.of("other pod on CPU 1, within the window", c("b", "w", "0-1"), 500, true, false),
                Arguments.of("other pod on the shared pool", c("b", "w", "0", "0"), 60_000, true, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windows")
    void window(String name, ContainerSample c, long offMillis, boolean canPin, boolean violates) {
        Map<String, CpuList> exclusive = Map.of("a/w", CpuList.of(1));
        Instant first = T0;
        Instant now = T0.plusMillis(offMillis);
        Optional<Instant> writable = canPin ? Optional.of(T0) : Optional.empty();
        // the first sample starts the container's clock, the later one judges it
        Invariants.Result r1 = Invariants.window(
                new Snapshot(first, List.of(c), exclusive, writable, Set.of("a", "b"), Map.of(), Set.of()),
                Map.of(),
                WINDOW);
        assertThat(r1.violations()).isEmpty();
        Invariants.Result r2 = Invariants.window(
                new Snapshot(now, List.of(c), exclusive, writable, Set.of("a", "b"), Map.of(), Set.of()),
                r1.offSince(),
                WINDOW);
        assertThat(r2.violations())
                .as("%s", r2.violations())
                .hasSize(violates ? 1 : 0)
                .allMatch(v -> v.kind() == ViolationKind.OUTSIDE_SET_TOO_LONG);
    }

    @Test
    void theWindowRunsFromWhenTheAgentCouldPinAgain() {
        ContainerSample wide = c("a", "w", "0-1");
        Map<String, CpuList> exclusive = Map.of("a/w", CpuList.of(1));
        Map<String, Instant> since = Map.of(wide.key(), T0);
        Instant back = T0.plusSeconds(60);
        Snapshot s = new Snapshot(
                back.plusMillis(1_000), List.of(wide), exclusive, Optional.of(back), Set.of("a"), Map.of(), Set.of());
        assertThat(Invariants.window(s, since, WINDOW).violations()).isEmpty();
        Snapshot later = new Snapshot(
                back.plusMillis(2_001), List.of(wide), exclusive, Optional.of(back), Set.of("a"), Map.of(), Set.of());
        assertThat(Invariants.window(later, since, WINDOW).violations()).hasSize(1);
    }

    @Test
    void aContainerBackOnItsSetLeavesTheWindowAndANewCgroupStartsAgain() {
        Map<String, CpuList> exclusive = Map.of("a/w", CpuList.of(1));
        ContainerSample wide = c("a", "w", "0-1");
        Invariants.Result r = Invariants.window(
                new Snapshot(
                        T0, List.of(c("a", "w", "1")), exclusive, Optional.of(T0), Set.of("a"), Map.of(), Set.of()),
                Map.of(wide.key(), T0.minusSeconds(60)),
                WINDOW);
        assertThat(r.offSince()).isEmpty();
        ContainerSample reborn = new ContainerSample("a", "w", "new-id", CpuList.parse("0-1"), List.of());
        Invariants.Result r2 = Invariants.window(
                new Snapshot(
                        T0.plusSeconds(5),
                        List.of(reborn),
                        exclusive,
                        Optional.of(T0),
                        Set.of("a"),
                        Map.of(),
                        Set.of()),
                Map.of(wide.key(), T0),
                WINDOW);
        assertThat(r2.violations()).isEmpty();
        assertThat(r2.offSince()).containsOnlyKeys(reborn.key());
    }

    static Stream<Arguments> records() {
        return Stream.of(
                Arguments.of(
                        "every record holds the live pod",
                        Map.of(
                                Record.CHECKPOINT,
                                Set.of("a"),
                                Record.NUMA_NODE_STATE,
                                Set.of("a"),
                                Record.POD_RESOURCES,
                                Set.of("a", "b")),
                        Set.of("a"),
                        0),
                Arguments.of("nothing read this sample", Map.of(), Set.of("a"), 0),
                Arguments.of("a deleted pod may go", Map.of(Record.CHECKPOINT, Set.of()), Set.of("gone"), 0),
                Arguments.of("lost from the checkpoint", Map.of(Record.CHECKPOINT, Set.of("b")), Set.of("a"), 1),
                Arguments.of(
                        "lost from NumaNodeState and PodResources",
                        Map.of(
                                Record.CHECKPOINT,
                                Set.of("a"),
                                Record.NUMA_NODE_STATE,
                                Set.of(),
                                Record.POD_RESOURCES,
                                Set.of()),
                        Set.of("a"),
                        2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("records")
    void allocationsLost(String name, Map<Record, Set<String>> records, Set<String> must, int lost) {
        Snapshot s = new Snapshot(T0, List.of(), Map.of(), Optional.of(T0), Set.of("a", "b"), records, must);
        assertThat(Invariants.allocationsLost(s))
                .hasSize(lost)
                .allMatch(v -> v.kind() == ViolationKind.ALLOCATION_LOST);
    }

    @Test
    void checkCombinesAllThree() {
        Snapshot s = new Snapshot(
                T0.plusSeconds(10),
                List.of(c("a", "w", "1"), c("b", "w", "1")),
                Map.of("a/w", CpuList.of(1), "b/w", CpuList.of(1)),
                Optional.of(T0),
                Set.of("a", "b"),
                Map.of(Record.CHECKPOINT, Set.of("a")),
                Set.of("a", "b"));
        assertThat(Invariants.check(s, Map.of(), WINDOW).violations().stream()
                        .map(Violation::kind)
                        .distinct())
                .containsExactlyInAnyOrder(ViolationKind.CPU_EXCLUSIVE_TO_TWO, ViolationKind.ALLOCATION_LOST);
    }

    @Test
    void aCpuInTheWholeCpusetOfContainersOfTwoPodsIsHeldByTwo() {
        CpuList capable = CpuList.of(1);
        // a's two containers share CPU 1 (its bubble), b is on the shared pool with the reserved CPU 0: one holder.
        assertThat(Invariants.heldByTwo(
                        List.of(c("a", "engine", "1"), c("a", "proxy", "1"), c("b", "x", "0-1")), capable))
                .isEmpty();
        // a handover that gave CPU 1 to b before a's containers left it
        List<Violation> found = Invariants.heldByTwo(List.of(c("a", "engine", "1"), c("b", "engine", "1")), capable);
        assertThat(found).extracting(Violation::kind).containsExactly(ViolationKind.CPU_HELD_BY_TWO);
        assertThat(found.getFirst().detail()).contains("a/engine").contains("b/engine");
    }
}
