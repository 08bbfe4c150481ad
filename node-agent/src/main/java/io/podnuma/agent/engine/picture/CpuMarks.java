package io.podnuma.agent.engine.picture;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What each online CPU of a machine holds under an allocation: its pool, and the pod and containers whose CPUs name it.
 * The pictures draw this; it is read off the engine's {@link NodeState} and nothing else.
 *
 * @param cpus every online CPU's mark
 * @param pods the pods with CPUs of their own, in the state's order; a pod's number in the picture is its index + 1
 * @param nodeShared the containers on the node shared pool, as {@code namespace/pod/container}
 * @param sharedPool the node shared pool (the reserved CPUs included, as the engine keeps it)
 * @param reserved the CPUs reserved for the system
 */
public record CpuMarks(
        SortedMap<Integer, Mark> cpus,
        List<PodEntry> pods,
        List<String> nodeShared,
        CpuSet sharedPool,
        CpuSet reserved) {

    /** A CPU's pool, by what runs there now: a container's exclusive slice wins over its pod's pool. */
    public enum Pool {
        EXCLUSIVE("exclusive"),
        POD_SHARED("pod-shared"),
        RESERVED("reserved"),
        SHARED("shared"),
        UNALLOCATED("unallocated");

        private final String wireName;

        Pool(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /**
     * One CPU.
     *
     * @param pod {@code namespace/name} of the pod holding it, {@code ""} when none does
     * @param containers the pod's containers whose own CPUs (exclusive or the pod's pool) include it, in spec order;
     *     an init container that ran there stays listed beside the app container that reuses the CPU
     */
    public record Mark(Pool pool, String pod, List<String> containers) {
        public Mark {
            containers = List.copyOf(containers);
        }
    }

    /** A pod of the legend: {@code namespace/name}, and one line per container (name, CPUs, kind). */
    public record PodEntry(String pod, List<String> containers) {
        public PodEntry {
            containers = List.copyOf(containers);
        }
    }

    public CpuMarks {
        cpus = Collections.unmodifiableSortedMap(new TreeMap<>(cpus));
        pods = List.copyOf(pods);
        nodeShared = List.copyOf(nodeShared);
    }

    /** The machine alone: every online CPU unallocated. */
    public static CpuMarks none(CpuTopology topology) {
        SortedMap<Integer, Mark> cpus = new TreeMap<>();
        topology.onlineCpus().forEach(cpu -> cpus.put(cpu, new Mark(Pool.UNALLOCATED, "", List.of())));
        return new CpuMarks(cpus, List.of(), List.of(), CpuSet.empty(), CpuSet.empty());
    }

    /** The marks of {@code state} on {@code topology}, {@code reserved} being the allocator's reserved CPUs. */
    public static CpuMarks of(CpuTopology topology, NodeState state, CpuSet reserved) {
        SortedMap<Integer, String> podOf = new TreeMap<>();
        SortedMap<Integer, List<String>> containersOf = new TreeMap<>();
        CpuSet.Builder exclusive = CpuSet.builder();
        List<PodEntry> pods = new ArrayList<>();
        List<String> nodeShared = new ArrayList<>();
        for (PodAssignment p : state.pods().values()) {
            String pod = p.ref().namespace() + "/" + p.ref().name();
            List<String> lines = new ArrayList<>();
            p.bubble().forEach(cpu -> podOf.put(cpu, pod));
            for (ContainerAssignment c : p.containers()) {
                if (c.kind() == AssignmentKind.NODE_SHARED) {
                    nodeShared.add(pod + "/" + c.name());
                    lines.add(c.name() + ": node shared pool");
                    continue;
                }
                lines.add(c.name() + ": " + c.cpus() + " " + c.kind().wireName());
                c.cpus().forEach(cpu -> {
                    podOf.put(cpu, pod);
                    containersOf.computeIfAbsent(cpu, k -> new ArrayList<>()).add(c.name());
                });
                if (c.kind() == AssignmentKind.EXCLUSIVE) {
                    exclusive.addAll(c.cpus());
                }
            }
            if (p.hasBubble()) {
                lines.add(
                        0,
                        "bubble " + p.bubble() + ", pod pool "
                                + (p.podSharedPool().isEmpty() ? "-" : p.podSharedPool()));
            }
            if (!p.exclusiveCpus().isEmpty() || p.hasBubble()) {
                pods.add(new PodEntry(pod, lines));
            }
        }
        CpuSet exclusiveCpus = exclusive.build();
        SortedMap<Integer, Mark> cpus = new TreeMap<>();
        topology.onlineCpus().forEach(cpu -> {
            Pool pool;
            if (exclusiveCpus.contains(cpu)) {
                pool = Pool.EXCLUSIVE;
            } else if (podOf.containsKey(cpu)) {
                pool = Pool.POD_SHARED;
            } else if (reserved.contains(cpu)) {
                pool = Pool.RESERVED;
            } else if (state.sharedPool().contains(cpu)) {
                pool = Pool.SHARED;
            } else {
                pool = Pool.UNALLOCATED;
            }
            cpus.put(cpu, new Mark(pool, podOf.getOrDefault(cpu, ""), containersOf.getOrDefault(cpu, List.of())));
        });
        return new CpuMarks(cpus, pods, nodeShared, state.sharedPool(), reserved);
    }

    /** The picture's number of {@code pod} (1 for the first pod with CPUs of its own), 0 when it has none. */
    public int number(String pod) {
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i).pod().equals(pod)) {
                return i + 1;
            }
        }
        return 0;
    }
}
