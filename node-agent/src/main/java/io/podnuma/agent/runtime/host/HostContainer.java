package io.podnuma.agent.runtime.host;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.runtime.core.Pin;
import java.util.Objects;
import java.util.Optional;

/**
 * A container cgroup on the host and what the agent last knew of its cpuset.
 *
 * @param applied the cpuset last read or written; empty when not known yet
 */
public record HostContainer(CgroupPath path, ContainerCgroup cgroup, Optional<Pin> applied) {

    public HostContainer {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(cgroup, "cgroup");
        Objects.requireNonNull(applied, "applied");
    }

    public HostContainer withApplied(Pin pin) {
        return new HostContainer(path, cgroup, Optional.of(pin));
    }

    public String podUid() {
        return cgroup.podUid();
    }
}
