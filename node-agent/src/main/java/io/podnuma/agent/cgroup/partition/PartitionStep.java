package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Objects;

/** One write of a change of partitions, in the order {@link PartitionPlan} gives. */
public sealed interface PartitionStep {

    CgroupPath dir();

    /** {@code cpuset.cpus.exclusive} of {@code dir}: the CPUs it may give to partitions below or be one with; empty clears. */
    record Exclusive(CgroupPath dir, CpuSet cpus) implements PartitionStep {
        public Exclusive {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(cpus, "cpus");
        }
    }

    /** {@code cpuset.cpus.partition} of {@code dir}. */
    record Partition(CgroupPath dir, PartitionType type) implements PartitionStep {
        public Partition {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(type, "type");
        }
    }
}
