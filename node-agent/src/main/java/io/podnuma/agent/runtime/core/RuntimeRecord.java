package io.podnuma.agent.runtime.core;

import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Map;

/**
 * A container runtime that keeps its own record of each container's cpuset (through NRI) and is told of the agent's
 * writes. Its updates are applied by the runtime later, after writes of ours that may already have replaced them, so
 * the CPUs an update carries count as possibly held by its container until the runtime has answered
 * ({@code NodeAgent.runtimeApplied}).
 */
public interface RuntimeRecord {

    /** On the loop thread, after a task: the cpusets written, the last one per container. Must not block. */
    void written(Map<ContainerId, Pin> pins);

    /**
     * From any thread: per container, the CPUs the runtime may still write into it: updates sent and not yet answered
     * (or not yet sent), and the runtime's own updates answered and not yet applied.
     */
    Map<ContainerId, CpuSet> pending();

    /** No runtime record: the cgroup writes are all there is. */
    RuntimeRecord NONE = new RuntimeRecord() {
        @Override
        public void written(Map<ContainerId, Pin> pins) {}

        @Override
        public Map<ContainerId, CpuSet> pending() {
            return Map.of();
        }
    };
}
