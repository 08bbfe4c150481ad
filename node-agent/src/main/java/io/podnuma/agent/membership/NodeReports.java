package io.podnuma.agent.membership;

/** The objects the agent publishes about its node, which go when the node leaves podnuma. */
public enum NodeReports {
    NUMA_NODE_STATE,
    NODE_RESOURCE_TOPOLOGY
}
