package io.podnuma.agent.runtime;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import java.util.Objects;
import java.util.Optional;

/**
 * A container cgroup on the host and what the agent last knew of its cpuset.
 *
 * @param applied the cpuset last read or written; empty when not known yet
 */
record HostContainer(CgroupPath path, ContainerCgroup cgroup, Optional<Pin> applied) {

    HostContainer {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(cgroup, "cgroup");
        Objects.requireNonNull(applied, "applied");
    }

    HostContainer withApplied(Pin pin) {
        return new HostContainer(path, cgroup, Optional.of(pin));
    }

    String podUid() {
        return cgroup.podUid();
    }
}
