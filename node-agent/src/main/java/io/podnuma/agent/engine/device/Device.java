package io.podnuma.agent.engine.device;

import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A device of a device plugin, as the kubelet reports it: its resource, its id and the NUMA nodes it is attached to.
 *
 * @param resource the extended resource, e.g. {@code example.com/accel}
 * @param id the plugin's id of the device
 * @param numaNodes the NUMA nodes the plugin reported; empty: the plugin gave no topology
 */
public record Device(String resource, String id, SortedSet<Integer> numaNodes) {

    public Device {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(id, "id");
        numaNodes = new TreeSet<>(numaNodes);
        for (Integer n : numaNodes) {
            if (n == null || n < 0) {
                throw new IllegalArgumentException(
                        "device " + resource + "/" + id + ": NUMA node " + n + " is not a node number");
            }
        }
        numaNodes = java.util.Collections.unmodifiableSortedSet(numaNodes);
    }

    public static Device of(String resource, String id, Integer... numaNodes) {
        return new Device(resource, id, new TreeSet<>(Set.of(numaNodes)));
    }

    public boolean hasTopology() {
        return !numaNodes.isEmpty();
    }

    @Override
    public String toString() {
        return resource + "/" + id + (hasTopology() ? " on NUMA " + numaNodes : " (no topology)");
    }
}
