package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Whether each exclusive slice is also a cgroup v2 cpuset partition ({@code cpuset.cpus.partition}), so that no other
 * task of the node can run on its CPUs, not only no other container the agent pins.
 */
public enum CpuPartition {
    /** The slices are exclusive by their cpusets alone (as the kubelet's CPU manager does). */
    @JsonProperty("none")
    NONE,
    /** Each slice is a partition with its own scheduling domain: load balancing among its own CPUs. */
    @JsonProperty("root")
    ROOT,
    /** Each slice is a partition without load balancing (as isolcpus): a task stays on the CPU it is on. */
    @JsonProperty("isolated")
    ISOLATED;

    /**
     * Leaves the default out when a spec is written: a policy written before the field existed keeps its {@link
     * PolicyHash}, so an upgrade does not count as a policy change on every node.
     */
    public static final class NoneFilter {
        @Override
        public boolean equals(Object other) {
            return other == null || other == NONE;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
