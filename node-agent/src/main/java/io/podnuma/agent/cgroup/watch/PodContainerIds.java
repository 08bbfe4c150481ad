package io.podnuma.agent.cgroup.watch;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.InvalidCgroupNameException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The runtime container IDs a pod's status names, both ways: per container name its current ID (to find its cgroup
 * with {@link io.podnuma.agent.cgroup.CgroupNaming}), and per ID the container name (for a cgroup the watcher
 * noticed). Init, app and ephemeral containers alike; their names are unique within a pod.
 *
 * <p>The ID of a container's previous run ({@code lastState.terminated.containerID}) also maps to its name, so a
 * cgroup removed after a restart is still attributed. A status without an ID (waiting, not created yet) names none:
 * a cgroup may appear before the status names it, and the caller looks again when the status changes.
 *
 * @param podUid the pod's {@code metadata.uid}
 * @param current per container name the ID of its current run
 * @param names per ID (current and previous runs) the container name
 * @param problems container IDs that could not be read, one message each (pod, container, value, what is allowed)
 */
public record PodContainerIds(
        String podUid, Map<String, ContainerId> current, Map<ContainerId, String> names, List<String> problems) {

    public PodContainerIds {
        Objects.requireNonNull(podUid, "podUid");
        current = Map.copyOf(current);
        names = Map.copyOf(names);
        problems = List.copyOf(problems);
    }

    /**
     * Reads {@code status.initContainerStatuses}, {@code containerStatuses} and {@code ephemeralContainerStatuses}.
     *
     * @throws IllegalArgumentException when the pod has no {@code metadata.uid}
     */
    public static PodContainerIds of(Pod pod) {
        String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
        String who = pod.getMetadata() == null
                ? "pod"
                : "pod " + pod.getMetadata().getNamespace() + "/"
                        + pod.getMetadata().getName();
        if (uid == null || uid.isBlank()) {
            throw new IllegalArgumentException(who + " has no metadata.uid: its cgroups cannot be named");
        }
        Map<String, ContainerId> current = new LinkedHashMap<>();
        Map<ContainerId, String> names = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        PodStatus status = pod.getStatus();
        if (status != null) {
            for (List<ContainerStatus> list : List.of(
                    orEmpty(status.getInitContainerStatuses()),
                    orEmpty(status.getContainerStatuses()),
                    orEmpty(status.getEphemeralContainerStatuses()))) {
                for (ContainerStatus s : list) {
                    String name = s.getName();
                    if (name == null || name.isEmpty()) {
                        continue;
                    }
                    String where = who + " container " + name;
                    if (s.getLastState() != null && s.getLastState().getTerminated() != null) {
                        read(s.getLastState().getTerminated().getContainerID(), where + " lastState", problems)
                                .ifPresent(id -> names.put(id, name));
                    }
                    Optional<ContainerId> id = read(s.getContainerID(), where, problems);
                    if (id.isPresent()) {
                        current.put(name, id.get());
                        names.put(id.get(), name);
                    }
                }
            }
        }
        return new PodContainerIds(uid, current, names, problems);
    }

    /** The ID of the named container's current run, when the status has one. */
    public Optional<ContainerId> idOf(String containerName) {
        return Optional.ofNullable(current.get(containerName));
    }

    /** The container whose current or previous run has this ID, when the status names it. */
    public Optional<String> nameOf(ContainerId id) {
        return Optional.ofNullable(names.get(id));
    }

    private static Optional<ContainerId> read(String containerId, String where, List<String> problems) {
        if (containerId == null || containerId.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ContainerId.parse(containerId));
        } catch (InvalidCgroupNameException e) {
            problems.add(where + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
