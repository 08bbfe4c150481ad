package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Gives a container cgroup a wanted {@code cpuset.cpus} and {@code cpuset.mems}.
 *
 * <p>On v1 the kernel refuses a child set that is not inside its parent's and a parent set that
 * would no longer hold a child's, so the order matters: ancestors grow first (top-down), descendants
 * shrink first (bottom-up), and a move goes parent to old ∪ new, children to their part of new,
 * parent to new. v2 clamps silently instead of refusing, so the same order is used and the
 * effective set is checked afterwards. Every write is planned from one read of the tree before the
 * first is made, so a refusal (an empty set for a populated cgroup) changes nothing, and an apply
 * whose sets are already in place writes nothing (sets are compared parsed, not as text).
 */
public final class CpusetWriter {

    /** One of the two cpuset lists, with its file names per cgroup version. */
    private enum Resource {
        CPUS(WritableCgroupFile.CPUSET_CPUS, "cpuset.effective_cpus", "cpuset.cpus.effective", "CPUs"),
        MEMS(WritableCgroupFile.CPUSET_MEMS, "cpuset.effective_mems", "cpuset.mems.effective", "memory nodes");

        final WritableCgroupFile writable;
        final String file;
        final String v1Effective;
        final String v2Effective;
        final String noun;

        Resource(WritableCgroupFile writable, String v1Effective, String v2Effective, String noun) {
            this.writable = writable;
            this.file = writable.fileName();
            this.v1Effective = v1Effective;
            this.v2Effective = v2Effective;
            this.noun = noun;
        }
    }

    private final CgroupLayout layout;
    private final CgroupFiles files;

    public CpusetWriter(CgroupLayout layout, CgroupFiles files) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
    }

    /**
     * Makes {@code container}'s cpuset exactly {@code cpus} and {@code mems}.
     *
     * @return the writes made, in order; empty when everything was already in place
     * @throws CgroupWriteException when the change is refused (nothing written) or a write fails
     *     (the writes before it stay; applying again continues from there)
     */
    public List<CgroupWrite> apply(CgroupPath container, CpuSet cpus, CpuSet mems) throws CgroupWriteException {
        if (container.isRoot()) {
            throw new CgroupWriteException(
                    layout.cpusetRoot(), "refusing to write the cpuset of the hierarchy root " + layout.cpusetRoot());
        }
        // A pool change applies this to every container on the pool, so each file operation saved counts a hundred
        // times: the container's existence is checked only when one of its files is missing, each directory is
        // listed once, and a set is read back only when it was written or not known to be in force.
        Path dir = container.in(layout.cpusetRoot());
        Listing listing = new Listing();
        List<CgroupWrite> plan = new ArrayList<>();
        if (layout.version() == CgroupVersion.V2) {
            planSubtreeControl(container, plan);
        }
        boolean delegationPending = !plan.isEmpty();
        boolean cpusInForce = planResource(container, Resource.CPUS, cpus, delegationPending, plan, listing);
        int cpuWrites = plan.size();
        boolean memsInForce = planResource(container, Resource.MEMS, mems, delegationPending, plan, listing);
        boolean memWrites = plan.size() > cpuWrites;
        execute(plan);
        if (!plan.isEmpty()) {
            if (cpuWrites > 0 || !cpusInForce) {
                verifyEffective(dir, Resource.CPUS, cpus);
            }
            if (memWrites || !memsInForce) {
                verifyEffective(dir, Resource.MEMS, mems);
            }
        }
        return List.copyOf(plan);
    }

    /** v2: every cgroup from the root down to the container's parent must pass cpuset to its children. */
    private void planSubtreeControl(CgroupPath container, List<CgroupWrite> plan) throws CgroupWriteException {
        CgroupPath p = CgroupPath.root();
        for (String segment : container.segments()) {
            Path dir = p.in(layout.cpusetRoot());
            String text = read(dir.resolve(WritableCgroupFile.SUBTREE_CONTROL.fileName()));
            if (!Arrays.asList(text.strip().split("\\s+")).contains("cpuset")) {
                plan.add(new CgroupWrite(dir, WritableCgroupFile.SUBTREE_CONTROL, "+cpuset"));
            }
            p = p.child(segment);
        }
    }

    /**
     * Plans one resource of the container.
     *
     * @return whether the container's effective set was read and holds {@code wanted} already (v1): then, with no
     *     write of this resource, its effective set is {@code wanted} (it lies inside the configured set, which is
     *     {@code wanted}) and needs no reading back
     */
    private boolean planResource(
            CgroupPath container,
            Resource r,
            CpuSet wanted,
            boolean delegationPending,
            List<CgroupWrite> plan,
            Listing listing)
            throws CgroupWriteException {
        Path dir = container.in(layout.cpusetRoot());
        boolean inForce = withinEffective(dir, r, wanted);
        if (!inForce && !withinParentEffective(container, r, wanted, delegationPending)) {
            planAncestors(container, r, wanted, plan);
        }
        planSubtree(dir, r, containerSet(dir, r), wanted, plan, listing);
        return inForce;
    }

    /**
     * The container's configured set; a missing file is looked into only now, so that the usual apply costs no
     * check of the directory: a missing cgroup is a clear error, nothing having been written yet.
     */
    private CpuSet containerSet(Path dir, Resource r) throws CgroupWriteException {
        Path file = dir.resolve(r.file);
        try {
            return parse(file, files.read(file));
        } catch (NoSuchFileException e) {
            if (!files.isDirectory(dir)) {
                throw new CgroupWriteException(
                        dir, "container cgroup " + dir + " does not exist: the runtime has not created it (yet)", e);
            }
            return readSet(dir, r); // the cgroup is there without the file: as for any cgroup of the tree
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + kernelText(e), e);
        }
    }

    /**
     * v1: whether the cgroup's effective set already holds all of {@code wanted}. Every ancestor's effective set
     * holds the cgroup's, so none needs growing and reading them can be skipped (a shrink, such as the shared
     * pool giving a CPU to a new exclusive owner, then costs a read of the container's own files only). v2 asks
     * the parent only ({@link #withinParentEffective}): there a cgroup's effective set may be its parent's.
     */
    private boolean withinEffective(Path dir, Resource r, CpuSet wanted) throws CgroupWriteException {
        if (layout.version() != CgroupVersion.V1) {
            return false;
        }
        return effectiveHolds(dir.resolve(r.v1Effective), wanted);
    }

    /**
     * Whether the parent's effective set holds all of {@code wanted}, so that no ancestor needs growing (a grow of
     * the shared pool: the pod cgroup above the container still holds the whole pool) and one read replaces the
     * walk. Effective sets nest on both versions (each is inside its parent's), so every ancestor's holds the
     * parent's too. On v1 the kernel then accepts the container's list (it is inside the parent's list, which holds
     * the parent's effective set); on v2 nothing is refused and the container's effective set becomes
     * {@code wanted}, which the read-back checks. v2 with a {@code +cpuset} still to be written above the
     * container: the files below it are not there yet, so walk as before.
     */
    private boolean withinParentEffective(CgroupPath container, Resource r, CpuSet wanted, boolean delegationPending)
            throws CgroupWriteException {
        CgroupPath parent = container.parent();
        if (parent.isRoot() || delegationPending) {
            return false; // directly under the root there is no ancestor to grow (the walk reads nothing)
        }
        Path dir = parent.in(layout.cpusetRoot());
        return effectiveHolds(
                dir.resolve(layout.version() == CgroupVersion.V1 ? r.v1Effective : r.v2Effective), wanted);
    }

    private boolean effectiveHolds(Path file, CpuSet wanted) throws CgroupWriteException {
        try {
            return wanted.isSubsetOf(parse(file, files.read(file)));
        } catch (NoSuchFileException e) {
            return false; // older kernels: no effective file, walk the ancestors
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + kernelText(e), e);
        }
    }

    private void planAncestors(CgroupPath container, Resource r, CpuSet wanted, List<CgroupWrite> plan)
            throws CgroupWriteException {
        CgroupPath ancestor = CgroupPath.root();
        List<String> segments = container.segments();
        for (int i = 0; i < segments.size() - 1; i++) {
            ancestor = ancestor.child(segments.get(i));
            Path dir = ancestor.in(layout.cpusetRoot());
            CpuSet current = readSet(dir, r);
            if (inherits(current)) {
                continue;
            }
            if (!wanted.isSubsetOf(current)) {
                plan.add(write(dir, r, current.union(wanted)));
            }
        }
    }

    /** Parent to old ∪ new, then each child that holds more than new to its part of new, then parent to new. */
    private void planSubtree(
            Path dir, Resource r, CpuSet current, CpuSet wanted, List<CgroupWrite> plan, Listing listing)
            throws CgroupWriteException {
        if (wanted.isEmpty() && !current.isEmpty() && populated(dir, listing)) {
            throw new CgroupWriteException(
                    dir,
                    "refusing to write an empty " + r.file + " to " + dir + " (now \"" + current
                            + "\"): it has processes, and a cgroup with processes must keep at least one of its "
                            + r.noun + "; give the container a non-empty set or move its processes first");
        }
        CpuSet union = current.union(wanted);
        if (!union.equals(current)) {
            plan.add(write(dir, r, union));
        }
        for (Path child : listing.children(dir)) {
            CpuSet childSet = readSet(child, r);
            if (!inherits(childSet) && !childSet.isSubsetOf(wanted)) {
                planSubtree(child, r, childSet, childSet.intersection(wanted), plan, listing);
            }
        }
        if (!wanted.equals(union)) {
            plan.add(write(dir, r, wanted));
        }
    }

    /** On v2 an empty list means "the parent's": such a cgroup neither limits its children nor needs growing. */
    private boolean inherits(CpuSet current) {
        return layout.version() == CgroupVersion.V2 && current.isEmpty();
    }

    private boolean populated(Path dir, Listing listing) throws CgroupWriteException {
        if (layout.version() == CgroupVersion.V2) {
            for (String line : read(dir.resolve("cgroup.events")).split("\n")) {
                if (line.strip().equals("populated 1")) {
                    return true;
                }
            }
            return false;
        }
        if (!read(dir.resolve("tasks")).isBlank()) {
            return true;
        }
        for (Path child : listing.children(dir)) {
            if (populated(child, listing)) {
                return true;
            }
        }
        return false;
    }

    private void execute(List<CgroupWrite> plan) throws CgroupWriteException {
        for (int i = 0; i < plan.size(); i++) {
            CgroupWrite w = plan.get(i);
            try {
                files.write(w);
            } catch (IOException e) {
                throw new CgroupWriteException(
                        w.path(),
                        "writing \"" + w.value() + "\" to " + w.path() + " failed: " + kernelText(e) + " (write "
                                + (i + 1) + " of " + plan.size() + "; the " + i + " before it were made)",
                        e);
            }
        }
    }

    private void verifyEffective(Path dir, Resource r, CpuSet wanted) throws CgroupWriteException {
        Path file = dir.resolve(layout.version() == CgroupVersion.V1 ? r.v1Effective : r.v2Effective);
        CpuSet effective;
        try {
            effective = parse(file, files.read(file));
        } catch (NoSuchFileException e) {
            return; // older kernels have no effective files; the configured list is all there is
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + kernelText(e), e);
        }
        if (!effective.equals(wanted)) {
            throw new CgroupWriteException(
                    file,
                    "after writing \"" + wanted + "\" to " + dir.resolve(r.file) + " the kernel reports \"" + effective
                            + "\" in " + file + ": a cgroup above " + dir + " does not allow all of those "
                            + r.noun);
        }
    }

    private CpuSet readSet(Path dir, Resource r) throws CgroupWriteException {
        Path file = dir.resolve(r.file);
        try {
            return parse(file, files.read(file));
        } catch (NoSuchFileException e) {
            if (layout.version() == CgroupVersion.V2) {
                return CpuSet.empty(); // the parent does not pass cpuset down yet; planned above
            }
            throw new CgroupWriteException(
                    file, file + " does not exist: " + dir + " is not a cgroup of the v1 cpuset hierarchy", e);
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + kernelText(e), e);
        }
    }

    private static CpuSet parse(Path file, String text) throws CgroupWriteException {
        try {
            return CpuSet.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CgroupWriteException(file, file + ": " + e.getMessage(), e);
        }
    }

    private String read(Path file) throws CgroupWriteException {
        try {
            return files.read(file);
        } catch (IOException e) {
            throw new CgroupWriteException(file, "cannot read " + file + ": " + kernelText(e), e);
        }
    }

    /** The sub-directories of the cgroups one apply looks at, each directory listed once (both resources walk them). */
    private final class Listing {
        private final Map<Path, List<Path>> listed = new HashMap<>();

        List<Path> children(Path dir) throws CgroupWriteException {
            List<Path> known = listed.get(dir);
            if (known != null) {
                return known;
            }
            try {
                List<Path> c = new ArrayList<>(files.childDirectories(dir));
                c.sort(Comparator.naturalOrder());
                listed.put(dir, c);
                return c;
            } catch (IOException e) {
                throw new CgroupWriteException(dir, "cannot list " + dir + ": " + kernelText(e), e);
            }
        }
    }

    private static CgroupWrite write(Path dir, Resource r, CpuSet value) {
        return new CgroupWrite(dir, r.writable, value.toString());
    }

    static String kernelText(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
