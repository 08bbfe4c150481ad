package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a container's CPUs come from (KEP-5526's assignment types). */
public enum AssignmentType {
    /** CPUs of its own, from the node (container scope) or from its pod's bubble (pod scope). */
    @JsonProperty("Exclusive")
    EXCLUSIVE,
    /** The pod's shared pool: what is left of the pod's bubble after the exclusive slices. */
    @JsonProperty("PodShared")
    POD_SHARED,
    /** The node's shared pool. */
    @JsonProperty("NodeShared")
    NODE_SHARED
}
