package io.podnuma.agent.cgroup;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.nio.file.Path;
import java.util.List;
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
    CPU_MAX("cpu.max", Optional.of("max"), "the CFS quota off"),
    /**
     * v2, {@code cpuManager.partition}: the CPUs a cgroup may give to cpuset partitions below it, or be one with;
     * any list (empty clears it).
     */
    CPUSET_CPUS_EXCLUSIVE("cpuset.cpus.exclusive", List.of(), "a CPU list"),
    /** v2, the same: whether the cgroup is a cpuset partition, and of which type. */
    CPUSET_CPUS_PARTITION("cpuset.cpus.partition", List.of("member", "root", "isolated"), "the partition type");

    private final String fileName;
    private final List<String> values;
    private final String meaning;

    WritableCgroupFile(String fileName, Optional<String> onlyValue, String meaning) {
        this(fileName, onlyValue.stream().toList(), meaning);
    }

    WritableCgroupFile(String fileName, List<String> values, String meaning) {
        this.fileName = fileName;
        this.values = values;
        this.meaning = meaning;
    }

    /** The file's name in a cgroup directory. */
    public String fileName() {
        return fileName;
    }

    /** The values the agent writes here; empty for the cpuset lists, which take any list. */
    public List<String> allowedValues() {
        return values;
    }

    /**
     * Checks that {@code value} is one the agent writes to this file.
     *
     * @param file where it would go, for the message
     * @throws IllegalArgumentException naming the file, the value and what is allowed
     */
    void check(Path file, String value) {
        if (!values.isEmpty()) {
            if (!values.contains(value)) {
                throw new IllegalArgumentException("refusing to write \"" + value + "\" to " + file
                        + ": the agent writes only "
                        + String.join(
                                " or ",
                                values.stream().map(v -> "\"" + v + "\"").toList())
                        + " to " + fileName + " (" + meaning + ")");
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
