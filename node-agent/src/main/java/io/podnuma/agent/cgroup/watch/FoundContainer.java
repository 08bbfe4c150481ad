package io.podnuma.agent.cgroup.watch;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import java.util.Objects;

/**
 * A container cgroup that exists on the host.
 *
 * @param container who it belongs to (pod QoS, pod UID, runtime container ID)
 * @param path its directory relative to the cpuset hierarchy root
 */
public record FoundContainer(ContainerCgroup container, CgroupPath path) {

    public FoundContainer {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(path, "path");
    }
}
