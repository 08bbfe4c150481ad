package io.podnuma.agent.engine.topology;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The topology manager policies, by their kubelet configuration names. */
public enum TopologyPolicyName {
    NONE("none"),
    BEST_EFFORT("best-effort"),
    RESTRICTED("restricted"),
    SINGLE_NUMA_NODE("single-numa-node");

    private final String configName;

    TopologyPolicyName(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static TopologyPolicyName parse(String value) {
        for (TopologyPolicyName name : values()) {
            if (name.configName.equals(value)) {
                return name;
            }
        }
        throw new IllegalArgumentException("topologyManager.policy " + (value == null ? "null" : "\"" + value + "\"")
                + " is not a topology manager policy: allowed "
                + Arrays.stream(values()).map(TopologyPolicyName::configName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return configName;
    }
}
