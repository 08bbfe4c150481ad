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

    /** The bit of {@code CAP_SYS_ADMIN} in a capability set. */
    int CAP_SYS_ADMIN = 21;

    /**
     * @param hierarchy the cgroup v2 mount (or the cpuset hierarchy of v1)
     * @param top the kubelet's top cgroup ({@code kubepods}, {@code kubepods.slice})
     * @param procStatus this process's {@code /proc/self/status}: the kernel makes a partition below the root only
     *     for a task with {@code CAP_SYS_ADMIN} in its effective set ({@code CapEff})
     */
    static PartitionSupport of(CgroupVersion version, Path hierarchy, CgroupPath top, String procStatus) {
        if (version != CgroupVersion.V2) {
            return new Unsupported("the node runs cgroup v1; cpuset partitions are cgroup v2's");
        }
        Path exclusive = top.in(hierarchy).resolve("cpuset.cpus.exclusive");
        if (!Files.exists(exclusive)) {
            return new Unsupported("the kernel has no " + exclusive + " (Linux 6.7 and newer have it): a partition"
                    + " below the root needs every cgroup above it to list its CPUs there");
        }
        if (!sysAdmin(procStatus)) {
            return new Unsupported("the agent lacks CAP_SYS_ADMIN, which the kernel requires to make a cpuset"
                    + " partition below the root: install the chart with agent.cpusetPartitions=true (the operator's"
                    + " agentCpusetPartitions), which grants the agents of such a policy that one capability");
        }
        return new Supported();
    }

    /** Whether {@code CapEff} of a {@code /proc/<pid>/status} holds {@code CAP_SYS_ADMIN}. */
    static boolean sysAdmin(String procStatus) {
        for (String line : procStatus.lines().toList()) {
            if (line.startsWith("CapEff:")) {
                long effective = Long.parseUnsignedLong(
                        line.substring("CapEff:".length()).strip(), 16);
                return (effective >>> CAP_SYS_ADMIN & 1) == 1;
            }
        }
        return false;
    }
}
