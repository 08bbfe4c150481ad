package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The writes that turn one set of cpuset partitions into another on cgroup v2 ("remote" partitions, Linux 6.7+): a
 * partition below the root needs every ancestor but the root to list its CPUs in {@code cpuset.cpus.exclusive}, and
 * the kernel refuses (or invalidates a partition) when an ancestor would list fewer CPUs than the partitions below it
 * hold. So CPUs leave partitions first and ancestors after (the deepest first), and join ancestors first (the
 * outermost first) and partitions after. A partition that only changes its CPUs is changed in place, never torn down.
 * Pure: the effects are {@code PartitionWriter}'s.
 */
public final class PartitionPlan {

    private PartitionPlan() {}

    /**
     * @param held the partitions there are now: the cgroup and its CPUs
     * @param heldAncestors each ancestor's {@code cpuset.cpus.exclusive} now (missing: empty)
     * @param wanted the partitions there should be
     * @param type what each wanted partition is ({@link PartitionType#ROOT} or {@link PartitionType#ISOLATED})
     */
    public static List<PartitionStep> between(
            Map<CgroupPath, CpuSet> held,
            Map<CgroupPath, CpuSet> heldAncestors,
            Map<CgroupPath, CpuSet> wanted,
            PartitionType type) {
        if (type == PartitionType.MEMBER) {
            throw new IllegalArgumentException("a wanted partition is root or isolated, not member");
        }
        List<PartitionStep> steps = new ArrayList<>();
        // 1. Partitions give up CPUs: the ones that go become members and clear their list; the ones that change keep
        // what stays.
        for (CgroupPath dir : deepestFirst(held.keySet())) {
            CpuSet now = held.get(dir);
            CpuSet then = wanted.getOrDefault(dir, CpuSet.empty());
            CpuSet kept = now.intersection(then);
            if (kept.isEmpty()) {
                steps.add(new PartitionStep.Partition(dir, PartitionType.MEMBER));
                steps.add(new PartitionStep.Exclusive(dir, CpuSet.empty()));
            } else if (!kept.equals(now)) {
                steps.add(new PartitionStep.Exclusive(dir, kept));
            }
        }
        // 2. and 3. Ancestors: what they lose, the deepest first; then what they gain, the outermost first.
        Map<CgroupPath, CpuSet> finalAncestors = ancestorsOf(wanted);
        Set<CgroupPath> ancestors = new TreeSet<>(Comparator.comparing(CgroupPath::toString));
        ancestors.addAll(finalAncestors.keySet());
        ancestors.addAll(heldAncestors.keySet());
        ancestors.addAll(ancestorsOf(held).keySet());
        for (CgroupPath dir : deepestFirst(ancestors)) {
            CpuSet now = heldAncestors.getOrDefault(dir, CpuSet.empty());
            CpuSet kept = now.intersection(finalAncestors.getOrDefault(dir, CpuSet.empty()));
            if (!kept.equals(now)) {
                steps.add(new PartitionStep.Exclusive(dir, kept));
            }
        }
        for (CgroupPath dir : outermostFirst(ancestors)) {
            CpuSet then = finalAncestors.getOrDefault(dir, CpuSet.empty());
            CpuSet afterLosing = heldAncestors.getOrDefault(dir, CpuSet.empty()).intersection(then);
            if (!afterLosing.equals(then)) {
                steps.add(new PartitionStep.Exclusive(dir, then));
            }
        }
        // 4. Partitions take their CPUs: a changed one its new list; a new one its list, then its type.
        for (CgroupPath dir : outermostFirst(wanted.keySet())) {
            CpuSet then = wanted.get(dir);
            CpuSet kept = held.getOrDefault(dir, CpuSet.empty()).intersection(then);
            if (kept.equals(then)) {
                continue;
            }
            steps.add(new PartitionStep.Exclusive(dir, then));
            if (kept.isEmpty()) {
                steps.add(new PartitionStep.Partition(dir, type));
            }
        }
        return steps;
    }

    /** Each ancestor of a partition (not the root, not a partition itself) and the CPUs of the partitions below it. */
    public static Map<CgroupPath, CpuSet> ancestorsOf(Map<CgroupPath, CpuSet> partitions) {
        Map<CgroupPath, CpuSet> out = new TreeMap<>(Comparator.comparing(CgroupPath::toString));
        partitions.forEach((dir, cpus) -> {
            for (CgroupPath a = dir.parent(); !a.isRoot(); a = a.parent()) {
                out.merge(a, cpus, CpuSet::union);
            }
        });
        return out;
    }

    private static List<CgroupPath> deepestFirst(Set<CgroupPath> dirs) {
        return dirs.stream()
                .sorted(Comparator.<CgroupPath>comparingInt(d -> d.segments().size())
                        .reversed()
                        .thenComparing(CgroupPath::toString))
                .toList();
    }

    private static List<CgroupPath> outermostFirst(Set<CgroupPath> dirs) {
        return dirs.stream()
                .sorted(Comparator.<CgroupPath>comparingInt(d -> d.segments().size())
                        .thenComparing(CgroupPath::toString))
                .toList();
    }
}
