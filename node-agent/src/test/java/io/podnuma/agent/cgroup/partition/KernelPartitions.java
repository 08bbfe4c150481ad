package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link PartitionFiles} on a model of the rules the guest's 6.12 kernel applied below the kubelet's cgroup: a write
 * of {@code cpuset.cpus.exclusive} that would leave a cgroup listing CPUs its parent does not (the root aside), or two
 * siblings listing the same CPU, fails with "Invalid argument" and changes nothing; a partition whose CPUs are not
 * listed, or one the test makes the kernel refuse, is "invalid". Writes to a cgroup that is gone do nothing.
 */
public final class KernelPartitions implements PartitionFiles {

    private final Map<CgroupPath, CpuSet> exclusive = new HashMap<>();
    private final Map<CgroupPath, PartitionType> type = new HashMap<>();
    private final Map<CgroupPath, String> refusing = new HashMap<>();
    private final Set<CgroupPath> gone = new HashSet<>();
    private final Map<CgroupPath, String> failing = new HashMap<>();
    private final List<PartitionStep> written = new ArrayList<>();

    @Override
    public PartitionSupport support() {
        return new PartitionSupport.Supported();
    }

    /** The kernel will make {@code dir} an invalid partition, for {@code reason}. */
    public synchronized void refuse(CgroupPath dir, String reason) {
        refusing.put(dir, reason);
    }

    /** The cgroup was removed (its pod ended): a partition goes with it. */
    public synchronized void remove(CgroupPath dir) {
        gone.add(dir);
        exclusive.remove(dir);
        type.remove(dir);
    }

    /** Sets up what an earlier agent left (no rule checked). */
    public synchronized void leave(CgroupPath dir, PartitionType as, CpuSet cpus) {
        exclusive.put(dir, cpus);
        for (CgroupPath a = dir.parent(); !a.isRoot(); a = a.parent()) {
            exclusive.merge(a, cpus, CpuSet::union);
        }
        type.put(dir, as);
    }

    /** Every write to {@code dir} fails with {@code error}. */
    public synchronized void failWrites(CgroupPath dir, String error) {
        failing.put(dir, error);
    }

    /** Sets {@code cpuset.cpus.exclusive} of a cgroup outside the agent's (no rule checked). */
    public synchronized void list(CgroupPath dir, CpuSet cpus) {
        exclusive.put(dir, cpus);
    }

    /** The steps written so far. */
    public synchronized List<PartitionStep> written() {
        return List.copyOf(written);
    }

    /** The partitions the kernel honours, with their CPUs. */
    public synchronized Map<CgroupPath, CpuSet> inForce() {
        Map<CgroupPath, CpuSet> out = new HashMap<>();
        type.forEach((dir, t) -> {
            if (t != PartitionType.MEMBER && state(dir).inForce()) {
                out.put(dir, exclusive.get(dir));
            }
        });
        return out;
    }

    /** The partition type of each cgroup that is not a member. */
    public synchronized Map<CgroupPath, PartitionType> types() {
        Map<CgroupPath, PartitionType> out = new HashMap<>(type);
        out.values().removeIf(t -> t == PartitionType.MEMBER);
        return out;
    }

    /** Every cgroup with a {@code cpuset.cpus.exclusive}, partitions or not. */
    public synchronized Map<CgroupPath, CpuSet> exclusiveLists() {
        return Map.copyOf(exclusive);
    }

    @Override
    public synchronized Optional<PartitionState> read(CgroupPath dir) {
        return gone.contains(dir) ? Optional.empty() : Optional.of(state(dir));
    }

    private PartitionState state(CgroupPath dir) {
        PartitionType t = type.getOrDefault(dir, PartitionType.MEMBER);
        CpuSet cpus = exclusive.getOrDefault(dir, CpuSet.empty());
        Optional<String> invalid = Optional.empty();
        if (t != PartitionType.MEMBER) {
            if (refusing.containsKey(dir)) {
                invalid = Optional.of(refusing.get(dir));
            } else if (cpus.isEmpty()) {
                invalid = Optional.of("Invalid cpu list in cpuset.cpus.exclusive");
            } else if (!dir.parent().isRoot()
                    && !cpus.isSubsetOf(exclusive.getOrDefault(dir.parent(), CpuSet.empty()))) {
                invalid = Optional.of("Parent is not a partition root");
            }
        }
        return new PartitionState(t, invalid, cpus);
    }

    @Override
    public synchronized boolean write(PartitionStep step) throws CgroupWriteException {
        if (gone.contains(step.dir())) {
            return false;
        }
        if (failing.containsKey(step.dir())) {
            throw new CgroupWriteException(Path.of("/" + step.dir()), "write " + step + ": " + failing.get(step.dir()));
        }
        written.add(step);
        switch (step) {
            case PartitionStep.Exclusive e -> {
                CpuSet before = exclusive.get(e.dir());
                if (e.cpus().isEmpty()) {
                    exclusive.remove(e.dir());
                } else {
                    exclusive.put(e.dir(), e.cpus());
                }
                Optional<String> broken = broken(e.dir());
                if (broken.isPresent()) {
                    if (before == null) {
                        exclusive.remove(e.dir());
                    } else {
                        exclusive.put(e.dir(), before);
                    }
                    throw new CgroupWriteException(
                            Path.of("/" + e.dir()), "write " + step + ": Invalid argument (" + broken.get() + ")");
                }
            }
            case PartitionStep.Partition p -> type.put(p.dir(), p.type());
        }
        return true;
    }

    private static boolean belowKubepods(CgroupPath dir) {
        return dir.segments().getFirst().equals("kubepods");
    }

    /** The rule a write to {@code written} breaks, if any: with its parent, its children or its siblings. */
    private Optional<String> broken(CgroupPath written) {
        for (Map.Entry<CgroupPath, CpuSet> e : exclusive.entrySet()) {
            CgroupPath dir = e.getKey();
            if (!dir.equals(written)
                    && !dir.parent().equals(written)
                    && !dir.parent().equals(written.parent())) {
                continue;
            }
            CgroupPath parent = dir.parent();
            if (!parent.isRoot() && !e.getValue().isSubsetOf(exclusive.getOrDefault(parent, CpuSet.empty()))) {
                return Optional.of(dir + " lists " + e.getValue() + ", its parent " + exclusive.get(parent));
            }
            for (Map.Entry<CgroupPath, CpuSet> o : exclusive.entrySet()) {
                if (!o.getKey().equals(dir)
                        && o.getKey().parent().equals(parent)
                        && o.getValue().intersects(e.getValue())) {
                    String a = dir.toString();
                    String b = o.getKey().toString();
                    return Optional.of("siblings " + (a.compareTo(b) < 0 ? a + " and " + b : b + " and " + a)
                            + " list the same CPUs");
                }
            }
        }
        return Optional.empty();
    }

    /** What is below the kubelet's cgroup, as the agent's scan covers only that. */
    @Override
    public synchronized Found scan() {
        Map<CgroupPath, PartitionState> partitions = new HashMap<>();
        Map<CgroupPath, CpuSet> ancestors = new HashMap<>();
        for (CgroupPath dir : exclusive.keySet()) {
            if (type.getOrDefault(dir, PartitionType.MEMBER) == PartitionType.MEMBER && belowKubepods(dir)) {
                ancestors.put(dir, exclusive.get(dir));
            }
        }
        type.forEach((dir, t) -> {
            if (t != PartitionType.MEMBER && belowKubepods(dir)) {
                partitions.put(dir, state(dir));
            }
        });
        return new Found(partitions, ancestors);
    }
}
