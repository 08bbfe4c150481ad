package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Every cgroup file the agent writes, and no other: {@link CgroupFiles#write} takes a {@link CgroupWrite}, which
 * names one of these, so a write to {@code cgroup.procs}, {@code memory.max} or any other control file cannot be
 * expressed. A file the agent only ever sets to one value admits that value alone: the quota files can be switched
 * off, never set to throttle, and {@code cgroup.subtree_control} can pass the cpuset controller down and do nothing
 * else. The names are the same on cgroup v1 and v2.
 */
public enum WritableCgroupFile {
    /** Any CPU list: the container's, its ancestors' (grown first) and its descendants' (shrunk first). */
    CPUSET_CPUS("cpuset.cpus", Optional.empty(), "a CPU list"),
    /** Any memory node list, as {@link #CPUSET_CPUS}. */
    CPUSET_MEMS("cpuset.mems", Optional.empty(), "a memory node list"),
    /** v2: a cgroup above the container passes cpuset to its children, which then have cpuset files. */
    SUBTREE_CONTROL("cgroup.subtree_control", Optional.of("+cpuset"), "cpuset passed to the children"),
    /** v1, {@code exclusiveCpuQuota: disable}: no CFS quota on CPUs the container owns alone. */
    CPU_CFS_QUOTA_US("cpu.cfs_quota_us", Optional.of("-1"), "the CFS quota off"),
    /** v2, the same: the quota off, the period kept. */
    CPU_MAX("cpu.max", Optional.of("max"), "the CFS quota off");

    private final String fileName;
    private final Optional<String> onlyValue;
    private final String meaning;

    WritableCgroupFile(String fileName, Optional<String> onlyValue, String meaning) {
        this.fileName = fileName;
        this.onlyValue = onlyValue;
        this.meaning = meaning;
    }

    /** The file's name in a cgroup directory. */
    public String fileName() {
        return fileName;
    }

    /** The one value the agent writes here; empty for the cpuset lists, which take any list. */
    public Optional<String> onlyValue() {
        return onlyValue;
    }

    /**
     * Checks that {@code value} is one the agent writes to this file.
     *
     * @param file where it would go, for the message
     * @throws IllegalArgumentException naming the file, the value and what is allowed
     */
    void check(Path file, String value) {
        if (onlyValue.isPresent()) {
            if (!onlyValue.get().equals(value)) {
                throw new IllegalArgumentException("refusing to write \"" + value + "\" to " + file
                        + ": the agent writes only \"" + onlyValue.get() + "\" to " + fileName + " (" + meaning
                        + ")");
            }
            return;
        }
        try {
            CpuSet.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "refusing to write \"" + value + "\" to " + file + ": " + fileName + " takes " + meaning + ": "
                            + e.getMessage(),
                    e);
        }
    }
}
