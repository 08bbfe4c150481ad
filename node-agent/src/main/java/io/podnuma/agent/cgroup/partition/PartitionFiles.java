package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Map;
import java.util.Optional;

/** The host side of cpuset partitions: what the kubelet's cgroups are now, and one write of a plan. */
public interface PartitionFiles {

    /** Whether partitions can be made on this node, or why not. */
    PartitionSupport support();

    /** The cgroup's partition now; empty when the cgroup is gone. */
    Optional<PartitionState> read(CgroupPath dir) throws CgroupWriteException;

    /**
     * Makes one step of a {@link PartitionPlan}.
     *
     * @return false when the cgroup is gone (nothing to do there any more)
     * @throws CgroupWriteException when the kernel refuses it (its error text in the message)
     */
    boolean write(PartitionStep step) throws CgroupWriteException;

    /** The partitions and listing ancestors below the kubelet's cgroup now (after a restart or a policy change). */
    Found scan() throws CgroupWriteException;

    /**
     * @param partitions every cgroup whose {@code cpuset.cpus.partition} is not member (honoured or not)
     * @param ancestors every other cgroup with a {@code cpuset.cpus.exclusive}
     */
    record Found(Map<CgroupPath, PartitionState> partitions, Map<CgroupPath, CpuSet> ancestors) {
        public Found {
            partitions = Map.copyOf(partitions);
            ancestors = Map.copyOf(ancestors);
        }
    }

    /** A node without partitions (cgroup v1, tests that do not need them): nothing to read, nothing written. */
    static PartitionFiles none(String reason) {
        return new PartitionFiles() {
            @Override
            public PartitionSupport support() {
                return new PartitionSupport.Unsupported(reason);
            }

            @Override
            public Optional<PartitionState> read(CgroupPath dir) {
                return Optional.empty();
            }

            @Override
            public boolean write(PartitionStep step) {
                throw new IllegalStateException("no partitions on this node: " + reason);
            }

            @Override
            public Found scan() {
                return new Found(Map.of(), Map.of());
            }
        };
    }
}
