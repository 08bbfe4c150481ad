package io.podnuma.agent.engine.topology;

import java.util.Map;
import java.util.TreeMap;

/**
 * The topology manager policy options.
 *
 * @param preferClosestNumaNodes among equal-size masks prefer the smallest average NUMA distance
 * @param maxAllowableNumaNodes refuse machines with more NUMA nodes than this (upstream default 8)
 */
public record TopologyManagerOptions(boolean preferClosestNumaNodes, int maxAllowableNumaNodes) {

    public static final String PREFER_CLOSEST_NUMA_NODES = "prefer-closest-numa-nodes";
    public static final String MAX_ALLOWABLE_NUMA_NODES = "max-allowable-numa-nodes";
    /** The kubelet's default and the smallest value it accepts. */
    public static final int DEFAULT_MAX_ALLOWABLE_NUMA_NODES = 8;

    public TopologyManagerOptions {
        if (maxAllowableNumaNodes < DEFAULT_MAX_ALLOWABLE_NUMA_NODES) {
            throw new IllegalArgumentException("topology manager option " + MAX_ALLOWABLE_NUMA_NODES + "="
                    + maxAllowableNumaNodes + " is too small: the value must be at least "
                    + DEFAULT_MAX_ALLOWABLE_NUMA_NODES);
        }
        if (maxAllowableNumaNodes > NumaMask.MAX_NODES) {
            throw new IllegalArgumentException("topology manager option " + MAX_ALLOWABLE_NUMA_NODES + "="
                    + maxAllowableNumaNodes + " is too large: podnuma supports at most " + NumaMask.MAX_NODES
                    + " NUMA nodes");
        }
    }

    public static TopologyManagerOptions defaults() {
        return new TopologyManagerOptions(false, DEFAULT_MAX_ALLOWABLE_NUMA_NODES);
    }

    /** Parses the kubelet-style {@code topologyManagerPolicyOptions} map (string values). */
    public static TopologyManagerOptions parse(Map<String, String> options) {
        boolean preferClosest = false;
        int maxNodes = DEFAULT_MAX_ALLOWABLE_NUMA_NODES;
        for (Map.Entry<String, String> entry : new TreeMap<>(options).entrySet()) {
            String name = entry.getKey();
            String value = entry.getValue() == null ? "" : entry.getValue().trim();
            switch (name) {
                case PREFER_CLOSEST_NUMA_NODES -> {
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        throw new IllegalArgumentException("topology manager option " + name + "=\"" + value
                                + "\" is not a boolean: use true or false");
                    }
                    preferClosest = Boolean.parseBoolean(value);
                }
                case MAX_ALLOWABLE_NUMA_NODES -> {
                    try {
                        maxNodes = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("topology manager option " + name + "=\"" + value
                                + "\" is not an integer: give a node count of at least "
                                + DEFAULT_MAX_ALLOWABLE_NUMA_NODES);
                    }
                }
                default ->
                    throw new IllegalArgumentException("unknown topology manager option \"" + name + "\": allowed "
                            + PREFER_CLOSEST_NUMA_NODES + ", " + MAX_ALLOWABLE_NUMA_NODES);
            }
        }
        return new TopologyManagerOptions(preferClosest, maxNodes);
    }
}
