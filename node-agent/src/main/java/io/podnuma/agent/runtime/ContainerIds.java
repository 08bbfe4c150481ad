package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.podnuma.agent.cgroup.ContainerId;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** The runtime IDs a pod's status gives its containers (init, app and ephemeral), by container name. */
final class ContainerIds {

    private ContainerIds() {}

    static SortedMap<String, ContainerId> of(io.fabric8.kubernetes.api.model.Pod pod) {
        TreeMap<String, ContainerId> out = new TreeMap<>();
        var status = pod.getStatus();
        if (status == null) {
            return out;
        }
        add(status.getInitContainerStatuses(), out);
        add(status.getContainerStatuses(), out);
        add(status.getEphemeralContainerStatuses(), out);
        return out;
    }

    private static void add(List<ContainerStatus> statuses, TreeMap<String, ContainerId> out) {
        if (statuses == null) {
            return;
        }
        for (ContainerStatus s : statuses) {
            String id = s.getContainerID();
            if (s.getName() == null || id == null || id.isBlank()) {
                continue;
            }
            try {
                out.put(s.getName(), ContainerId.parse(id));
            } catch (IllegalArgumentException e) {
                // A runtime whose cgroups we cannot name (e.g. docker://): such a container is found by its
                // cgroup only, like any other the status does not name yet.
            }
        }
    }
}
