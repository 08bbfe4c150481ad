package io.podnuma.agent.cgroup;

/** Which cgroup API controls cpusets on the host. */
public enum CgroupVersion {
    /** Per-controller hierarchies; the cpuset controller has its own mount. */
    V1,
    /** The unified hierarchy; controllers are enabled per subtree. */
    V2
}
