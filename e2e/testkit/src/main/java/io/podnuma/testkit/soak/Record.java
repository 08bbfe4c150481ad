package io.podnuma.testkit.soak;

/** Where a pod's allocation is kept; each must keep a live pod's allocation. */
public enum Record {
    CHECKPOINT,
    NUMA_NODE_STATE,
    POD_RESOURCES
}
