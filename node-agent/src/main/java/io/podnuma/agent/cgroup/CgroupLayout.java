package io.podnuma.agent.cgroup;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how the host's container cgroups live.
 *
 * @param version v1 or v2
 * @param cpusetRoot the hierarchy holding {@code cpuset.*} files ({@code <root>/cpuset} on v1, the root on v2)
 * @param cpuRoot the hierarchy holding CFS quota files ({@code <root>/cpu} or {@code cpu,cpuacct} on v1)
 * @param naming the kubelet's and runtime's directory names
 */
public record CgroupLayout(CgroupVersion version, Path cpusetRoot, Path cpuRoot, CgroupNaming naming) {

    public CgroupLayout {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(cpusetRoot, "cpusetRoot");
        Objects.requireNonNull(cpuRoot, "cpuRoot");
        Objects.requireNonNull(naming, "naming");
    }

    /** The hierarchy that holds {@code file}: the only tree the agent may write it in. */
    public Path rootOf(WritableCgroupFile file) {
        return switch (file) {
            case CPUSET_CPUS, CPUSET_MEMS, SUBTREE_CONTROL, CPUSET_CPUS_EXCLUSIVE, CPUSET_CPUS_PARTITION -> cpusetRoot;
            case CPU_CFS_QUOTA_US, CPU_MAX -> cpuRoot;
        };
    }
}
