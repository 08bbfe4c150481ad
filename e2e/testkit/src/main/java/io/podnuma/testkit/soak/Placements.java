package io.podnuma.testkit.soak;

import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.testkit.cpu.CpuList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where each pinned container of a pod is, as one record states it, so the records can be compared container by
 * container (not only by the pods they name) and a pod's placement before a fault with the one after it.
 *
 * <p>A pod's placement is a map of facts: {@value #BUBBLE} (the pod's aligned CPU set under a pod budget), and for
 * each container that is not on the node shared pool {@code "<container> cpus"} (the set it runs on),
 * {@code "<container> mems"} (its memory NUMA nodes) and, for an exclusive one, {@code "<container> exclusive"}. A
 * pod with no fact is not pinned. The checkpoint and {@code NumaNodeState} state every fact; PodResources only the
 * bubble and the exclusive CPUs (the kubelet's semantics: a container's {@code cpu_ids} are its exclusive CPUs).
 */
public final class Placements {

    public static final String BUBBLE = "bubble";
    static final String CPUS = " cpus";
    static final String MEMS = " mems";
    static final String EXCLUSIVE = " exclusive";

    private Placements() {}

    /** One pod's facts as one record gives them; the builder the drivers fill from their own records. */
    public static final class Pod {
        private final SortedMap<String, String> facts = new TreeMap<>();

        public Pod bubble(CpuList cpus) {
            if (!cpus.isEmpty()) {
                facts.put(BUBBLE, cpus.toString());
            }
            return this;
        }

        /** A container off the node shared pool: the CPUs it runs on, exclusive or its pod's pool, and its mems. */
        public Pod container(String name, boolean exclusive, CpuList cpus, List<Integer> memoryNodes) {
            facts.put(name + CPUS, cpus.toString());
            // NumaNodeState leaves an empty list out
            facts.put(name + MEMS, new TreeSet<>(memoryNodes == null ? List.of() : memoryNodes).toString());
            if (exclusive) {
                facts.put(name + EXCLUSIVE, cpus.toString());
            }
            return this;
        }

        /** A container's exclusive CPUs alone (what PodResources says of a container). */
        public Pod exclusive(String name, CpuList cpus) {
            if (!cpus.isEmpty()) {
                facts.put(name + EXCLUSIVE, cpus.toString());
            }
            return this;
        }

        public SortedMap<String, String> facts() {
            return new TreeMap<>(facts);
        }
    }

    /** UID → facts, from the node's {@code NumaNodeState} allocations. */
    public static Map<String, SortedMap<String, String>> ofNumaNodeState(List<PodAllocation> allocations) {
        Map<String, SortedMap<String, String>> out = new TreeMap<>();
        for (PodAllocation a : allocations) {
            Pod p = new Pod();
            if (a.cpus() != null) {
                p.bubble(CpuList.parse(a.cpus()));
            }
            for (ContainerAllocation c : Objects.requireNonNullElse(a.containers(), List.<ContainerAllocation>of())) {
                if (c.assignment() == AssignmentType.NODE_SHARED) {
                    continue;
                }
                p.container(
                        c.name(),
                        c.assignment() == AssignmentType.EXCLUSIVE,
                        CpuList.parse(Objects.requireNonNullElse(c.cpus(), "")),
                        c.numaNodes());
            }
            out.put(a.uid(), p.facts());
        }
        return out;
    }

    /**
     * UID → facts, from a PodResources {@code List} answer; {@code uidByName} ({@code namespace/name} → UID, the
     * checkpoint's) names the pods, since PodResources does not carry the UID. Pods it does not name are left out.
     */
    public static Map<String, SortedMap<String, String>> ofPodResources(
            List<PodResources> answer, Map<String, String> uidByName) {
        Map<String, SortedMap<String, String>> out = new TreeMap<>();
        for (PodResources r : answer) {
            String uid = uidByName.get(r.getNamespace() + "/" + r.getName());
            if (uid == null) {
                continue;
            }
            Pod p = new Pod().bubble(ids(r.getCpuIdsList()));
            for (ContainerResources c : r.getContainersList()) {
                p.exclusive(c.getName(), ids(c.getCpuIdsList()));
            }
            out.put(uid, p.facts());
        }
        return out;
    }

    /** The facts a record states: PodResources only the bubble and the exclusive CPUs, the others every one. */
    static boolean states(Record r, String fact) {
        return r != Record.POD_RESOURCES || fact.equals(BUBBLE) || fact.endsWith(EXCLUSIVE);
    }

    /**
     * Containers a record places otherwise than the checkpoint does, for the live pods either names: a
     * {@link ViolationKind#PLACEMENT_DISAGREES} per pod and record, with both versions of the facts that differ.
     */
    public static List<Violation> disagreements(
            Map<String, SortedMap<String, String>> checkpoint,
            Map<Record, Map<String, SortedMap<String, String>>> records,
            Set<String> livePods) {
        List<Violation> out = new ArrayList<>();
        for (Map.Entry<Record, Map<String, SortedMap<String, String>>> r : new TreeMap<>(records).entrySet()) {
            Set<String> uids = new TreeSet<>(checkpoint.keySet());
            uids.addAll(r.getValue().keySet());
            uids.retainAll(livePods);
            for (String uid : uids) {
                SortedMap<String, String> want = new TreeMap<>();
                checkpoint.getOrDefault(uid, new TreeMap<>()).forEach((f, v) -> {
                    if (states(r.getKey(), f)) {
                        want.put(f, v);
                    }
                });
                SortedMap<String, String> got = r.getValue().getOrDefault(uid, new TreeMap<>());
                if (!want.equals(got)) {
                    out.add(new Violation(
                            ViolationKind.PLACEMENT_DISAGREES,
                            "pod " + uid,
                            r.getKey() + " says " + difference(got, want) + ", the checkpoint "
                                    + difference(want, got)));
                }
            }
        }
        return out;
    }

    /**
     * Pods pinned before (some fact) that are still live and whose facts changed: UID → what changed. Whether a fault
     * explains the change is the driver's to say ({@link FaultKind#mayMovePins()}).
     */
    public static Map<String, String> changed(
            Map<String, SortedMap<String, String>> before,
            Map<String, SortedMap<String, String>> after,
            Set<String> livePods) {
        Map<String, String> out = new TreeMap<>();
        before.forEach((uid, was) -> {
            if (was.isEmpty() || !livePods.contains(uid)) {
                return;
            }
            SortedMap<String, String> now = after.getOrDefault(uid, new TreeMap<>());
            if (!was.equals(now)) {
                out.put(uid, "was " + difference(was, now) + ", now " + difference(now, was));
            }
        });
        return out;
    }

    /**
     * The placement changes across fault {@code k} ({@link #changed}): one the fault explains
     * ({@link FaultKind#mayMovePins()}) goes to the tally's placement changes, every other is returned as a
     * {@link ViolationKind#PLACEMENT_CHANGED}.
     */
    public static List<Violation> acrossFault(
            FaultKind k,
            Map<String, SortedMap<String, String>> before,
            Map<String, SortedMap<String, String>> after,
            Set<String> livePods,
            SoakTally tally) {
        List<Violation> out = new ArrayList<>();
        changed(before, after, livePods).forEach((uid, what) -> {
            if (k.mayMovePins()) {
                tally.placementChanged(k.name().toLowerCase(java.util.Locale.ROOT) + ": " + what);
            } else {
                out.add(new Violation(ViolationKind.PLACEMENT_CHANGED, "pod " + uid, what + " across " + k));
            }
        });
        return out;
    }

    /** The facts of {@code a} that {@code b} does not have with the same value ({@code {}} when none). */
    private static String difference(SortedMap<String, String> a, SortedMap<String, String> b) {
        SortedMap<String, String> d = new TreeMap<>();
        a.forEach((f, v) -> {
            if (!v.equals(b.get(f))) {
                d.put(f, v);
            }
        });
        return d.toString();
    }

    private static CpuList ids(List<Long> ids) {
        TreeSet<Integer> s = new TreeSet<>();
        ids.forEach(i -> s.add(Math.toIntExact(i)));
        return new CpuList(s);
    }
}
