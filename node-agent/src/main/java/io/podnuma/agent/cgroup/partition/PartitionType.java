package io.podnuma.agent.cgroup.partition;

/** A cgroup v2 cpuset's {@code cpuset.cpus.partition}: what it is to the scheduler. */
public enum PartitionType {
    /** Not a partition: its CPUs are its parent's (the default). */
    MEMBER("member"),
    /** A partition with its own scheduling domain: its CPUs are balanced among its tasks only. */
    ROOT("root"),
    /** A partition without load balancing (as {@code isolcpus}): each task stays on the CPU it is on. */
    ISOLATED("isolated");

    private final String wire;

    PartitionType(String wire) {
        this.wire = wire;
    }

    /** The value written to and read from {@code cpuset.cpus.partition}. */
    public String wire() {
        return wire;
    }
}
