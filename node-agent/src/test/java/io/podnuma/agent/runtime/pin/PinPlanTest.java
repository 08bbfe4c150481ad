package io.podnuma.agent.runtime.pin;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.runtime.core.Pin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The order of cpuset writes, without a host: a fake performer holds the cpusets, may fail chosen writes, and after
 * every step checks that no CPU outside the shared pool is held by two containers the agent has decided.
 */
class PinPlanTest {

    static final CpuSet MEMS = CpuSet.of(0);
    static final CpuSet POOL = CpuSet.of(0, 1);
    static final CgroupPath A = CgroupPath.parse("kubepods/a");
    static final CgroupPath B = CgroupPath.parse("kubepods/b");
    static final CgroupPath C = CgroupPath.parse("kubepods/c");

    static Pin pin(Integer... cpus) {
        return new Pin(
                CpuSet.of(java.util.Arrays.stream(cpus)
                        .mapToInt(Integer::intValue)
                        .toArray()),
                MEMS);
    }

    /** The host as the performer sees it. */
    static final class FakeHost implements PinPlan.Performer {
        final Map<CgroupPath, Pin> held = new LinkedHashMap<>();
        final Set<CgroupPath> decided = new HashSet<>();
        final Set<CgroupPath> failing = new HashSet<>();
        final List<PinStep> steps = new ArrayList<>();
        final List<String> blocked = new ArrayList<>();
        int checks;

        FakeHost with(CgroupPath path, Pin pin) {
            held.put(path, pin);
            decided.add(path);
            return this;
        }

        @Override
        public void blocked(CgroupPath path, CpuSet cpus) {
            blocked.add(path + " " + cpus);
        }

        @Override
        public PinPlan.Outcome perform(PinStep step) {
            steps.add(step);
            if (failing.contains(step.path())) {
                return PinPlan.Outcome.FAILED;
            }
            held.put(step.path(), step.pin());
            decided.add(step.path());
            assertExclusive();
            return PinPlan.Outcome.WRITTEN;
        }

        void assertExclusive() {
            checks++;
            Map<Integer, CgroupPath> owner = new HashMap<>();
            for (Map.Entry<CgroupPath, Pin> e : held.entrySet()) {
                if (!decided.contains(e.getKey())) {
                    continue;
                }
                for (int cpu : e.getValue().cpus().difference(POOL).toArray()) {
                    CgroupPath other = owner.put(cpu, e.getKey());
                    assertThat(other)
                            .as("CPU %d held by %s and %s after %s", cpu, other, e.getKey(), steps)
                            .isNull();
                }
            }
        }

        PinPlan plan(Map<CgroupPath, CpuSet> stale) {
            Map<CgroupPath, Optional<Pin>> applied = new HashMap<>();
            held.forEach((p, pin) -> applied.put(p, Optional.of(pin)));
            return new PinPlan(applied, decided, stale, POOL, PinPlan.Mode.KEEP_APART);
        }
    }

    static SequencedMap<CgroupPath, Pin> wanted(Object... pathsAndPins) {
        SequencedMap<CgroupPath, Pin> w = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndPins.length; i += 2) {
            w.put((CgroupPath) pathsAndPins[i], (Pin) pathsAndPins[i + 1]);
        }
        return w;
    }

    @Test
    void everyContainerGivesUpFirstThenGains() {
        // a moves from 2,3 to 3,4; b from 4,5 to 2,5: a gives up 2, b gives up 4, then both gain.
        FakeHost host = new FakeHost().with(A, pin(2, 3)).with(B, pin(4, 5));
        host.plan(Map.of()).all(wanted(A, pin(3, 4), B, pin(2, 5)), host);
        assertThat(host.steps)
                .extracting(s -> s.kind() + " " + s.path() + " " + s.pin().cpus())
                .containsExactly(
                        "GIVE_UP /kubepods/a 3",
                        "GIVE_UP /kubepods/b 5",
                        "GAIN /kubepods/a 3-4",
                        "GAIN /kubepods/b 2,5");
        assertThat(host.held).containsEntry(A, pin(3, 4)).containsEntry(B, pin(2, 5));
        assertThat(host.checks).isEqualTo(4);
    }

    @Test
    void aContainerWaitsForTheCpusAnotherMustLeaveWhenItCannotGiveAnyUpFirst() {
        // b must move from 4 to 5 entirely (a cpuset is never empty: no narrowing); a gains 4 only after b left it.
        FakeHost host = new FakeHost().with(A, pin(2)).with(B, pin(4));
        host.plan(Map.of()).all(wanted(A, pin(2, 4), B, pin(5)), host);
        assertThat(host.steps)
                .extracting(s -> s.kind() + " " + s.path() + " " + s.pin().cpus())
                .containsExactly("GAIN /kubepods/b 5", "GAIN /kubepods/a 2,4");
    }

    @Test
    void sharedPoolCpusMayBeHeldByManyAtOnce() {
        FakeHost host = new FakeHost().with(A, pin(0, 1, 2)).with(B, pin(0, 1));
        host.plan(Map.of()).all(wanted(A, pin(0, 1), B, pin(0, 1)), host);
        assertThat(host.steps)
                .extracting(s -> s.kind() + " " + s.path() + " " + s.pin().cpus())
                .containsExactly("GIVE_UP /kubepods/a 0-1");
    }

    @Test
    void aFailedGiveUpKeepsItsCpusStaleAndNobodyGainsThem() {
        // a should give 3 to b, but a's write fails: b gets only what nobody still holds, and a retry is asked for.
        FakeHost host = new FakeHost().with(A, pin(2, 3)).with(B, pin(4));
        host.failing.add(A);
        PinPlan plan = host.plan(Map.of());
        plan.all(wanted(A, pin(2), B, pin(3, 4)), host);
        assertThat(plan.stale()).containsEntry(A, CpuSet.of(3));
        assertThat(host.held).containsEntry(A, pin(2, 3)).containsEntry(B, pin(4));
        assertThat(host.blocked).contains("/kubepods/b 3");
        assertThat(host.steps)
                .noneMatch(s -> s.path().equals(B) && s.pin().cpus().contains(3));
    }

    @Test
    void staleCpusBlockASingleWriteUntilTheirHolderHasGivenThemUp() {
        FakeHost host = new FakeHost().with(A, pin(2, 3)).with(B, pin(4));
        PinPlan plan = host.plan(Map.of(A, CpuSet.of(3)));
        assertThat(plan.one(B, pin(3, 4), host)).isFalse();
        assertThat(host.steps).isEmpty(); // only 4 is left, which b has: nothing to write
        assertThat(host.blocked).containsExactly("/kubepods/b 3");

        FakeHost later = new FakeHost().with(A, pin(2)).with(B, pin(4));
        PinPlan after = later.plan(Map.of());
        assertThat(after.one(B, pin(3, 4), later)).isTrue();
        assertThat(later.held).containsEntry(B, pin(3, 4));
    }

    @Test
    void aBlockedWriteGivesThePartNobodyHolds() {
        FakeHost host = new FakeHost().with(A, pin(2, 3)).with(C, pin(6));
        PinPlan plan = host.plan(Map.of(A, CpuSet.of(3)));
        assertThat(plan.one(C, pin(3, 4, 6), host)).isFalse();
        assertThat(host.held).containsEntry(C, pin(4, 6));
        assertThat(host.steps).singleElement().satisfies(s -> {
            assertThat(s.pin()).isEqualTo(pin(4, 6));
            assertThat(s.target()).isEqualTo(pin(3, 4, 6));
        });
    }

    @Test
    void aWrittenContainerNoLongerHoldsItsStaleCpus() {
        FakeHost host = new FakeHost().with(A, pin(2, 3));
        PinPlan plan = host.plan(Map.of(A, CpuSet.of(3)));
        assertThat(plan.one(A, pin(2), host)).isTrue();
        assertThat(plan.stale()).isEmpty();
        assertThat(plan.decided()).contains(A);
    }

    @Test
    void aNewContainerHoldingWhatItInheritedIsNoClaim() {
        // c is new (inherited every CPU, not decided): it is narrowed first and blocks nobody.
        FakeHost host = new FakeHost().with(A, pin(2));
        host.held.put(C, pin(0, 1, 2, 3, 4));
        host.plan(Map.of()).all(wanted(A, pin(2), C, pin(3)), host);
        assertThat(host.steps)
                .extracting(s -> s.kind() + " " + s.path() + " " + s.pin().cpus())
                .containsExactly("GIVE_UP /kubepods/c 3");
        assertThat(host.held).containsEntry(C, pin(3));
    }

    @Test
    void aSwapIsWrittenAsItIsWhenNoPassCanMakeProgress() {
        FakeHost host = new FakeHost().with(A, pin(2)).with(B, pin(3));
        host.decided.clear(); // the exclusivity check cannot hold for a swap: no order avoids the overlap
        host.plan(Map.of()).all(wanted(A, pin(3), B, pin(2)), host);
        assertThat(host.steps)
                .extracting(s -> s.kind() + " " + s.path() + " " + s.pin().cpus())
                .containsExactly("SWAP /kubepods/a 3", "SWAP /kubepods/b 2");
        assertThat(host.held).containsEntry(A, pin(3)).containsEntry(B, pin(2));
    }

    @Test
    void aContainerFoundGoneIsForgotten() {
        FakeHost host = new FakeHost().with(A, pin(2, 3));
        PinPlan plan =
                new PinPlan(Map.of(A, Optional.of(pin(2, 3))), Set.of(A), Map.of(), POOL, PinPlan.Mode.KEEP_APART);
        boolean done = plan.one(A, pin(2), new PinPlan.Performer() {
            @Override
            public void blocked(CgroupPath path, CpuSet cpus) {}

            @Override
            public PinPlan.Outcome perform(PinStep step) {
                return PinPlan.Outcome.GONE;
            }
        });
        assertThat(done).isFalse();
        assertThat(plan.gone()).containsExactly(A);
        assertThat(plan.applied()).isEmpty();
        assertThat(host.held).containsKey(A);
    }

    @Test
    void restoringKeepsNothingApart() {
        Map<CgroupPath, Optional<Pin>> applied = Map.of(A, Optional.of(pin(2)), B, Optional.of(pin(3)));
        PinPlan plan = new PinPlan(applied, Set.of(A, B), Map.of(A, CpuSet.of(3)), POOL, PinPlan.Mode.RESTORE);
        FakeHost host = new FakeHost();
        host.decided.clear();
        assertThat(plan.one(B, pin(0, 1, 2, 3), host)).isTrue();
        assertThat(host.blocked).isEmpty();
        assertThat(plan.stale()).doesNotContainKey(B);
    }

    @Test
    void stepsReadsAPlanWithoutPerformingIt() {
        assertThat(PinPlan.steps(Map.of(A, pin(2, 3)), POOL, wanted(A, pin(3))))
                .extracting(PinStep::kind, PinStep::pin)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(PinStep.Kind.GIVE_UP, pin(3)));
    }
}
