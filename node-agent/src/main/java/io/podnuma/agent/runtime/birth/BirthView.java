package io.podnuma.agent.runtime.birth;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.state.NodeState;
import java.util.Objects;

/**
 * What a container's pin at creation is decided from, as the loop left it after its last task: the node state
 * (already checkpointed, its cgroup writes already done), whether cpusets may be written at all, and the CPUs some
 * container still holds though it must give them up (a failed write), which no newborn container may get.
 */
public record BirthView(NodeState state, boolean writes, CpuSet blocked) {

    public BirthView {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(blocked, "blocked");
    }
}
