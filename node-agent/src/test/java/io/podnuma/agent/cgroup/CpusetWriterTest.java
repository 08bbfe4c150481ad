package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The v1 write order against an in-memory hierarchy that refuses what the kernel refuses. */
class CpusetWriterTest {

    private static final Path ROOT = Path.of("/fake/cpuset");
    private static final Path KUBEPODS = ROOT.resolve("kubepods");
    private static final Path BURSTABLE = KUBEPODS.resolve("burstable");
    private static final Path POD = BURSTABLE.resolve("pod0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b");
    private static final Path CONTAINER = POD.resolve("a".repeat(64));
    private static final CgroupPath CONTAINER_PATH = CgroupPath.relativize(ROOT, CONTAINER);

    private static CgroupLayout layout(Path root) {
        return new CgroupLayout(CgroupVersion.V1, root, root, new CgroupNaming(CgroupDriver.CGROUPFS));
    }

    private static FakeCpusetTree kubepodsTree(String cpus, String mems) {
        FakeCpusetTree t = new FakeCpusetTree(ROOT, "0-7", "0-1");
        t.mkdir(KUBEPODS, cpus, mems);
        t.mkdir(BURSTABLE, cpus, mems);
        t.mkdir(POD, cpus, mems);
        t.mkdir(CONTAINER, cpus, mems);
        return t;
    }

    private static CgroupWrite w(Path dir, String file, String value) {
        WritableCgroupFile f =
                file.equals("cpuset.cpus") ? WritableCgroupFile.CPUSET_CPUS : WritableCgroupFile.CPUSET_MEMS;
        return new CgroupWrite(dir, f, value);
    }

    @Test
    void growsAncestorsTopDownThenMovesTheContainer() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-1", "0");
        t.addTask(CONTAINER, 42);

        List<CgroupWrite> done = new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(2, 3), CpuSet.of(1));

        assertThat(done)
                .containsExactly(
                        w(KUBEPODS, "cpuset.cpus", "0-3"),
                        w(BURSTABLE, "cpuset.cpus", "0-3"),
                        w(POD, "cpuset.cpus", "0-3"),
                        w(CONTAINER, "cpuset.cpus", "0-3"),
                        w(CONTAINER, "cpuset.cpus", "2-3"),
                        w(KUBEPODS, "cpuset.mems", "0-1"),
                        w(BURSTABLE, "cpuset.mems", "0-1"),
                        w(POD, "cpuset.mems", "0-1"),
                        w(CONTAINER, "cpuset.mems", "0-1"),
                        w(CONTAINER, "cpuset.mems", "1"));
        assertThat(t.writes).isEqualTo(done);
        assertThat(t.set(CONTAINER, "cpuset.cpus")).isEqualTo(CpuSet.of(2, 3));
        assertThat(t.set(POD, "cpuset.cpus")).isEqualTo(CpuSet.range(0, 3));
    }

    /**
     * A grow inside the parent's effective set (the shared pool widening again): one read of the parent instead of
     * the walk, and the same writes the walk would plan (none above the container).
     */
    @Test
    void aGrowInsideTheParentsSetReadsNoAncestorAboveIt() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0-1");
        t.mkdir(CONTAINER, "0", "0");
        t.addTask(CONTAINER, 42);

        List<CgroupWrite> done =
                new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.range(0, 3), CpuSet.of(0));

        assertThat(done).containsExactly(w(CONTAINER, "cpuset.cpus", "0-3"));
        assertThat(t.reads).contains(POD.resolve("cpuset.effective_cpus"));
        assertThat(t.reads)
                .as("no ancestor above the pod cgroup is read")
                .noneMatch(f -> f.getParent().equals(KUBEPODS) || f.getParent().equals(BURSTABLE));
        assertThat(t.set(CONTAINER, "cpuset.cpus")).isEqualTo(CpuSet.range(0, 3));
    }

    /**
     * The shared pool shrinking under a container (a new exclusive owner took a CPU), its memory nodes unchanged:
     * what a pool change costs per container on the pool. No directory check, one listing, the new CPUs read back,
     * the memory nodes not (they were seen in force and not written).
     */
    @Test
    void aPoolShrinkReadsTheContainersOwnFilesOnceAndReadsBackOnlyWhatItWrote() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0-1");
        t.addTask(CONTAINER, 42);

        List<CgroupWrite> done =
                new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.range(0, 2), CpuSet.range(0, 1));

        assertThat(done).containsExactly(w(CONTAINER, "cpuset.cpus", "0-2"));
        assertThat(t.reads)
                .containsExactly(
                        CONTAINER.resolve("cpuset.effective_cpus"),
                        CONTAINER.resolve("cpuset.cpus"),
                        CONTAINER.resolve("cpuset.effective_mems"),
                        CONTAINER.resolve("cpuset.mems"),
                        CONTAINER.resolve("cpuset.effective_cpus"));
        assertThat(t.listings).containsExactly(CONTAINER);
        assertThat(t.directoryChecks).isEmpty();
    }

    /** A memory node written is read back like a CPU is (the kernel may keep what a cgroup above it lacks). */
    @Test
    void aWrittenMemoryNodeSetIsReadBack() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0-1");

        new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.range(0, 3), CpuSet.of(1));

        assertThat(t.reads.getLast()).isEqualTo(CONTAINER.resolve("cpuset.effective_mems"));
        assertThat(t.reads)
                .as("the CPUs, in force and not written, are not read back")
                .filteredOn(CONTAINER.resolve("cpuset.effective_cpus")::equals)
                .hasSize(1);
        assertThat(t.set(CONTAINER, "cpuset.mems")).isEqualTo(CpuSet.of(1));
    }

    /** The parent lacks part of the grow: the ancestors are read and grown top-down as before. */
    @Test
    void aGrowPastTheParentsSetStillWalksTheAncestors() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0-1");
        t.mkdir(POD, "0-1", "0-1");
        t.mkdir(CONTAINER, "0", "0");

        List<CgroupWrite> done =
                new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.range(0, 2), CpuSet.of(0));

        assertThat(done).containsExactly(w(POD, "cpuset.cpus", "0-2"), w(CONTAINER, "cpuset.cpus", "0-2"));
        assertThat(t.reads).contains(KUBEPODS.resolve("cpuset.cpus"), BURSTABLE.resolve("cpuset.cpus"));
    }

    @Test
    void shrinksDescendantsBottomUp() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0");
        Path child = CONTAINER.resolve("child");
        Path grandchild = child.resolve("grandchild");
        t.mkdir(child, "0-3", "0");
        t.mkdir(grandchild, "0-3", "0");
        t.addTask(grandchild, 7);

        List<CgroupWrite> done = new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(1), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        w(grandchild, "cpuset.cpus", "1"),
                        w(child, "cpuset.cpus", "1"),
                        w(CONTAINER, "cpuset.cpus", "1"));
    }

    @Test
    void movesParentToUnionThenChildThenParentToNew() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-3", "0");
        t.mkdir(CONTAINER, "0-1", "0");
        Path child = CONTAINER.resolve("child");
        t.mkdir(child, "0-1", "0");
        t.addTask(child, 9);

        List<CgroupWrite> done = new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(1, 2), CpuSet.of(0));

        assertThat(done)
                .containsExactly(
                        w(CONTAINER, "cpuset.cpus", "0-2"),
                        w(child, "cpuset.cpus", "1"),
                        w(CONTAINER, "cpuset.cpus", "1-2"));
    }

    @Test
    void secondApplyWritesNothingAndSetsAreComparedParsed() throws Exception {
        FakeCpusetTree t = kubepodsTree("0-7", "0-1");
        CpusetWriter writer = new CpusetWriter(layout(ROOT), t);
        assertThat(writer.apply(CONTAINER_PATH, CpuSet.of(3, 4, 5), CpuSet.of(1)))
                .containsExactly(w(CONTAINER, "cpuset.cpus", "3-5"), w(CONTAINER, "cpuset.mems", "1"));

        assertThat(writer.apply(CONTAINER_PATH, CpuSet.of(3, 4, 5), CpuSet.of(1)))
                .isEmpty();

        t.mkdir(CONTAINER, "5,3,4\n", "1\n"); // the same sets, spelled differently
        assertThat(writer.apply(CONTAINER_PATH, CpuSet.of(3, 4, 5), CpuSet.of(1)))
                .isEmpty();
        assertThat(t.writes).hasSize(2);
    }

    @Test
    void refusesAnEmptySetForAPopulatedCgroupAndWritesNothing() {
        FakeCpusetTree t = kubepodsTree("0-3", "0");
        t.addTask(CONTAINER, 42);

        assertThatThrownBy(() -> new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(0), CpuSet.empty()))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("refusing to write an empty cpuset.mems to " + CONTAINER)
                .hasMessageContaining("has processes");
        assertThat(t.writes).isEmpty();
    }

    @Test
    void refusesWhenAPopulatedDescendantWouldBeLeftEmpty() {
        FakeCpusetTree t = kubepodsTree("0-3", "0");
        Path child = CONTAINER.resolve("child");
        t.mkdir(child, "0", "0");
        t.addTask(child, 9);

        assertThatThrownBy(() -> new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(2), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining(child.toString())
                .hasMessageContaining("(now \"0\")");
        assertThat(t.writes).isEmpty();
    }

    @Test
    void aFailedWriteNamesTheFileTheValueAndTheKernelText() {
        FakeCpusetTree t = kubepodsTree("0-1", "0");
        t.failing.add(CONTAINER.resolve("cpuset.cpus"));

        assertThatThrownBy(() -> new CpusetWriter(layout(ROOT), t).apply(CONTAINER_PATH, CpuSet.of(1), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("writing \"1\" to " + CONTAINER.resolve("cpuset.cpus"))
                .hasMessageContaining("Input/output error (injected)")
                .hasMessageContaining("write 1 of 1")
                .satisfies(
                        e -> assertThat(((CgroupWriteException) e).path()).isEqualTo(CONTAINER.resolve("cpuset.cpus")));
    }

    @Test
    void aMissingContainerCgroupIsAClearError() {
        FakeCpusetTree t = kubepodsTree("0-1", "0");
        CgroupPath missing = CONTAINER_PATH.parent().child("b".repeat(64));

        assertThatThrownBy(() -> new CpusetWriter(layout(ROOT), t).apply(missing, CpuSet.of(1), CpuSet.of(0)))
                .isInstanceOf(CgroupWriteException.class)
                .hasMessageContaining("does not exist: the runtime has not created it");
        assertThat(t.writes).isEmpty();
    }

    /** Random trees, random targets, random wanted sets: the kernel never refuses a planned write. */
    @Test
    void randomTreesNeverViolateTheKernelRules() throws Exception {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        int applied = 0;
        int refused = 0;
        for (int round = 0; round < 500; round++) {
            int cpus = 1 + rnd.nextInt(12);
            int mems = 1 + rnd.nextInt(4);
            FakeCpusetTree t = new FakeCpusetTree(
                    ROOT,
                    CpuSet.range(0, cpus - 1).toString(),
                    CpuSet.range(0, mems - 1).toString());
            List<Path> dirs = new ArrayList<>();
            for (int i = 0; i < 1 + rnd.nextInt(10); i++) {
                Path parent = dirs.isEmpty() || rnd.nextInt(4) == 0 ? ROOT : dirs.get(rnd.nextInt(dirs.size()));
                Path d = parent.resolve("d" + i);
                t.mkdir(
                        d,
                        subset(rnd, t.set(parent, "cpuset.cpus")).toString(),
                        subset(rnd, t.set(parent, "cpuset.mems")).toString());
                if (rnd.nextInt(3) == 0) {
                    t.addTask(d, 100 + i);
                }
                dirs.add(d);
            }
            Path target = dirs.get(rnd.nextInt(dirs.size()));
            CpuSet wantCpus = subset(rnd, CpuSet.range(0, cpus - 1));
            CpuSet wantMems = subset(rnd, CpuSet.range(0, mems - 1));
            Map<Path, CpuSet[]> before = new HashMap<>();
            for (Path d : t.allDirs()) {
                before.put(d, new CpuSet[] {t.set(d, "cpuset.cpus"), t.set(d, "cpuset.mems")});
            }
            String where =
                    "seed " + seed + " round " + round + " target " + target + " wanted " + wantCpus + " / " + wantMems;
            CpusetWriter writer = new CpusetWriter(layout(ROOT), t);
            try {
                writer.apply(CgroupPath.relativize(ROOT, target), wantCpus, wantMems);
            } catch (CgroupWriteException e) {
                assertThat(e.getMessage()).as(where).contains("refusing to write an empty");
                assertThat(t.writes).as(where).isEmpty();
                refused++;
                continue;
            }
            applied++;
            assertThat(t.consistent()).as(where).isTrue();
            assertThat(t.set(target, "cpuset.cpus")).as(where).isEqualTo(wantCpus);
            assertThat(t.set(target, "cpuset.mems")).as(where).isEqualTo(wantMems);
            for (Path d : t.allDirs()) {
                CpuSet[] old = before.get(d);
                CpuSet nowCpus = t.set(d, "cpuset.cpus");
                if (d.equals(target)) {
                    continue;
                } else if (target.startsWith(d)) {
                    assertThat(nowCpus).as(where + " ancestor " + d).isEqualTo(old[0].union(wantCpus));
                } else if (d.startsWith(target)) {
                    CpuSet expected = old[0].isSubsetOf(wantCpus) ? old[0] : old[0].intersection(wantCpus);
                    assertThat(nowCpus).as(where + " descendant " + d).isEqualTo(expected);
                } else {
                    assertThat(nowCpus).as(where + " unrelated " + d).isEqualTo(old[0]);
                }
            }
            int writes = t.writes.size();
            if (!writer.apply(CgroupPath.relativize(ROOT, target), wantCpus, wantMems)
                            .isEmpty()
                    || t.writes.size() != writes) {
                fail("second apply wrote again: " + where);
            }
        }
        System.out.println("CpusetWriterTest seed " + seed + ": " + applied + " applied, " + refused + " refused");
        assertThat(applied).isPositive();
    }

    private static CpuSet subset(Random rnd, CpuSet of) {
        CpuSet.Builder b = CpuSet.builder();
        of.forEach(id -> {
            if (rnd.nextBoolean()) {
                b.add(id);
            }
        });
        CpuSet s = b.build();
        return s.isEmpty() ? CpuSet.of(of.first()) : s;
    }
}
