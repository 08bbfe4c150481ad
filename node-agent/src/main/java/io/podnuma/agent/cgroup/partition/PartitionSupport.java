package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Whether this node's kernel can make an exclusive slice a cpuset partition below the kubelet's cgroup: cgroup v2,
 * and {@code cpuset.cpus.exclusive} on the kubelet's top cgroup (Linux 6.7+; bookworm's 6.12 has it, its 6.1 does
 * not). What the agent falls back to is its caller's: the slices stay exclusive by their cpusets alone.
 */
public sealed interface PartitionSupport {

    /** Partitions can be made. */
    record Supported() implements PartitionSupport {}

    /** They cannot; {@code reason} says why, for a condition and an Event. */
    record Unsupported(String reason) implements PartitionSupport {
        public Unsupported {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * @param hierarchy the cgroup v2 mount (or the cpuset hierarchy of v1)
     * @param top the kubelet's top cgroup ({@code kubepods}, {@code kubepods.slice})
     */
    static PartitionSupport of(CgroupVersion version, Path hierarchy, CgroupPath top) {
        if (version != CgroupVersion.V2) {
            return new Unsupported("the node runs cgroup v1; cpuset partitions are cgroup v2's");
        }
        Path exclusive = top.in(hierarchy).resolve("cpuset.cpus.exclusive");
        if (!Files.exists(exclusive)) {
            return new Unsupported("the kernel has no " + exclusive + " (Linux 6.7 and newer have it): a partition"
                    + " below the root needs every cgroup above it to list its CPUs there");
        }
        return new Supported();
    }
}
