package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Topology manager policies, spelled as in the kubelet's {@code topologyManagerPolicy}. */
public enum TopologyManagerPolicy {
    /** No alignment. */
    @JsonProperty("none")
    NONE,
    /** Admit every pod; align when possible. */
    @JsonProperty("best-effort")
    BEST_EFFORT,
    /** Admit only when the merged hint is preferred. */
    @JsonProperty("restricted")
    RESTRICTED,
    /** Admit only when everything fits on one NUMA node. */
    @JsonProperty("single-numa-node")
    SINGLE_NUMA_NODE
}
