package io.podnuma.agent.runtime.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which cgroups should be cpuset partitions now: a pod budget's pod cgroup with the whole budget (its containers,
 * sidecars on the pod shared pool included, all run inside it), else each container cgroup with its exclusive CPUs.
 * Only once the containers hold what the agent wants for them, so a partition never takes CPUs a container of
 * another pod still runs on. Pure.
 */
public final class WantedPartitions {

    /**
     * A container cgroup on the host, as the partitions see it.
     *
     * @param holdsWanted whether it holds the cpuset the agent wants for it
     * @param exclusive its exclusive CPUs (none for a container on a shared pool)
     */
    public record HostSlice(CgroupPath dir, String podUid, boolean holdsWanted, Optional<CpuSet> exclusive) {
        public HostSlice {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(podUid, "podUid");
            Objects.requireNonNull(exclusive, "exclusive");
        }
    }

    /** A wanted partition: whose it is and its CPUs. */
    public record Slice(PodRef pod, Optional<String> container, CpuSet cpus) {
        public Slice {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(container, "container");
            Objects.requireNonNull(cpus, "cpus");
        }

        /** "pod ns/name" or "container c of pod ns/name", for messages. */
        public String owner() {
            return container.map(c -> "container " + c + " of ").orElse("") + "pod " + pod.namespace() + "/"
                    + pod.name();
        }
    }

    private WantedPartitions() {}

    /**
     * @param names the Kubernetes name of a container cgroup, where known
     */
    public static Map<CgroupPath, Slice> of(
            NodeState state, Collection<HostSlice> host, Function<CgroupPath, Optional<String>> names) {
        Map<String, List<HostSlice>> byPod = new LinkedHashMap<>();
        for (HostSlice h : host) {
            byPod.computeIfAbsent(h.podUid(), k -> new ArrayList<>()).add(h);
        }
        Map<CgroupPath, Slice> out = new TreeMap<>(Comparator.comparing(CgroupPath::toString));
        byPod.forEach((uid, slices) -> {
            PodAssignment pod = state.pods().get(uid);
            if (pod == null) {
                return;
            }
            if (pod.hasBubble()) {
                if (slices.stream().allMatch(HostSlice::holdsWanted)) {
                    out.put(slices.get(0).dir().parent(), new Slice(pod.ref(), Optional.empty(), pod.bubble()));
                }
                return;
            }
            for (HostSlice h : slices) {
                if (h.holdsWanted() && h.exclusive().isPresent()) {
                    out.put(
                            h.dir(),
                            new Slice(
                                    pod.ref(),
                                    names.apply(h.dir()),
                                    h.exclusive().get()));
                }
            }
        });
        return out;
    }
}
