package io.podnuma.testkit.soak;

import io.podnuma.testkit.cpu.CpuList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The soak's invariants as pure functions of a {@link Snapshot} (and, for the window, of when each container was
 * first seen off its set). The sampler shell reads the host and the records; nothing here reads anything.
 *
 * <p>The window (node-agent/docs/behaviour.md, "Fault soak"): a container with exclusive CPUs runs on exactly them,
 * and no container of another pod runs on them, within {@code window} of the later of the moment it was first seen
 * otherwise and the moment the agent became able to pin ({@link Snapshot#writableSince()}).
 */
public final class Invariants {

    private Invariants() {}

    /** The violations of one sample and the window state to pass to the next. */
    public record Result(List<Violation> violations, Map<String, Instant> offSince) {
        public Result {
            violations = List.copyOf(violations);
            offSince = Map.copyOf(offSince);
        }
    }

    /** Every invariant at once. */
    public static Result check(Snapshot s, Map<String, Instant> offSince, Duration window) {
        List<Violation> out = new ArrayList<>(exclusiveToTwo(s));
        Result w = window(s, offSince, window);
        out.addAll(w.violations());
        out.addAll(allocationsLost(s));
        return new Result(out, w.offSince());
    }

    /**
     * A CPU exclusive to two pods: in the expectation (two pods' exclusive sets overlap), or on the host (two
     * containers of different pods each confined to their pod's exclusive CPUs, by cgroup or by a process's affinity,
     * share a CPU).
     */
    public static List<Violation> exclusiveToTwo(Snapshot s) {
        List<Violation> out = new ArrayList<>();
        Map<String, CpuList> byPod = exclusiveByPod(s.exclusive());
        Map<Integer, String> owner = new TreeMap<>();
        for (Map.Entry<String, CpuList> e : byPod.entrySet()) {
            for (int cpu : e.getValue().ids()) {
                String other = owner.putIfAbsent(cpu, e.getKey());
                if (other != null && !other.equals(e.getKey())) {
                    out.add(new Violation(
                            ViolationKind.CPU_EXCLUSIVE_TO_TWO,
                            "cpu " + cpu,
                            "the checkpoint gives it to pods " + other + " and " + e.getKey()));
                }
            }
        }
        Map<Integer, String> confined = new TreeMap<>();
        for (ContainerSample c : s.containers()) {
            CpuList mine = byPod.get(c.pod());
            if (mine == null) {
                continue;
            }
            List<CpuList> sets = new ArrayList<>(c.affinities());
            sets.add(c.cpuset());
            for (CpuList set : sets) {
                if (set.isEmpty() || !mine.ids().containsAll(set.ids())) {
                    continue;
                }
                for (int cpu : set.ids()) {
                    String other = confined.putIfAbsent(cpu, c.pod());
                    if (other != null && !other.equals(c.pod())) {
                        out.add(new Violation(
                                ViolationKind.CPU_EXCLUSIVE_TO_TWO,
                                "cpu " + cpu,
                                "containers of pods " + other + " and " + c.pod() + " both run confined to it"));
                    }
                }
            }
        }
        return out;
    }

    /**
     * A CPU held by two pods as the host alone says it, without the agent's records: containers whose whole cpuset lies
     * within {@code exclusiveCapable} (the CPUs outside the reserved set, which the node shared pool also covers while
     * no pod holds them) hold those CPUs; containers of two pods holding one CPU at one instant is a double
     * assignment. A container on the shared pool spans a reserved CPU, so it holds nothing.
     */
    public static List<Violation> heldByTwo(List<ContainerSample> containers, CpuList exclusiveCapable) {
        Map<Integer, ContainerSample> holder = new TreeMap<>();
        List<Violation> out = new ArrayList<>();
        for (ContainerSample c : containers) {
            if (c.cpuset().isEmpty()
                    || !exclusiveCapable.ids().containsAll(c.cpuset().ids())) {
                continue;
            }
            for (int cpu : c.cpuset().ids()) {
                ContainerSample other = holder.putIfAbsent(cpu, c);
                if (other != null && !other.pod().equals(c.pod())) {
                    out.add(new Violation(
                            ViolationKind.CPU_HELD_BY_TWO,
                            "cpu " + cpu,
                            "the cgroups of " + other.name() + " and " + c.name() + " both hold only " + other.cpuset()
                                    + " and " + c.cpuset()));
                }
            }
        }
        return out;
    }

    /**
     * Exclusive containers off their set, and containers of other pods on someone's exclusive CPUs, for longer than
     * {@code window} while the agent could pin.
     */
    public static Result window(Snapshot s, Map<String, Instant> offSince, Duration window) {
        Map<String, CpuList> byPod = exclusiveByPod(s.exclusive());
        Map<String, Instant> next = new HashMap<>();
        List<Violation> out = new ArrayList<>();
        for (ContainerSample c : s.containers()) {
            String why = offBy(c, s.exclusive().get(c.name()), byPod);
            if (why == null) {
                continue;
            }
            Instant since = offSince.getOrDefault(c.key(), s.at());
            next.put(c.key(), since);
            if (s.writableSince().isEmpty()) {
                continue;
            }
            Instant from = since.isAfter(s.writableSince().get())
                    ? since
                    : s.writableSince().get();
            Duration off = Duration.between(from, s.at());
            if (off.compareTo(window) > 0) {
                out.add(new Violation(
                        ViolationKind.OUTSIDE_SET_TOO_LONG,
                        c.name(),
                        why + " for " + off.toMillis() + " ms while the agent could pin (window " + window.toMillis()
                                + " ms)"));
            }
        }
        return new Result(out, next);
    }

    /** Why a container is off its set, or null when it is on it. */
    private static String offBy(ContainerSample c, CpuList wanted, Map<String, CpuList> byPod) {
        List<CpuList> sets = new ArrayList<>(c.affinities());
        sets.add(c.cpuset());
        if (wanted != null) {
            for (CpuList set : sets) {
                if (!set.equals(wanted)) {
                    return "runs on " + set + ", its exclusive CPUs are " + wanted;
                }
            }
            return null;
        }
        for (Map.Entry<String, CpuList> e : byPod.entrySet()) {
            if (e.getKey().equals(c.pod())) {
                continue;
            }
            for (CpuList set : sets) {
                for (int cpu : set.ids()) {
                    if (e.getValue().contains(cpu)) {
                        return "runs on " + set + ", which has CPU " + cpu + " exclusive to pod " + e.getKey();
                    }
                }
            }
        }
        return null;
    }

    /** Live pods that must hold an allocation and are missing from a record read at this sample. */
    public static List<Violation> allocationsLost(Snapshot s) {
        List<Violation> out = new ArrayList<>();
        Set<String> must = new TreeSet<>(s.mustHold());
        must.retainAll(s.livePods());
        for (Map.Entry<Record, Set<String>> r : new TreeMap<>(s.records()).entrySet()) {
            for (String uid : must) {
                if (!r.getValue().contains(uid)) {
                    out.add(new Violation(
                            ViolationKind.ALLOCATION_LOST,
                            "pod " + uid,
                            "live and admitted, but missing from " + r.getKey()));
                }
            }
        }
        return out;
    }

    /** The union of each pod's containers' exclusive CPUs, by pod UID. */
    static Map<String, CpuList> exclusiveByPod(Map<String, CpuList> byContainer) {
        Map<String, TreeSet<Integer>> acc = new TreeMap<>();
        for (Map.Entry<String, CpuList> e : byContainer.entrySet()) {
            String pod = e.getKey().substring(0, e.getKey().indexOf('/'));
            acc.computeIfAbsent(pod, k -> new TreeSet<>()).addAll(e.getValue().ids());
        }
        Map<String, CpuList> out = new TreeMap<>();
        acc.forEach((k, v) -> out.put(k, new CpuList(v)));
        return out;
    }
}
