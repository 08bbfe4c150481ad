package io.podnuma.agent.report.nrt;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One node's {@code NodeResourceTopology} ({@code topology.node.k8s.io/v1alpha2}) as the agent means it: what the
 * NUMA-aware scheduler plugin reads. Two renderings are the same object exactly when they are {@code equals}; the
 * lists are in the renderer's fixed order and quantities are in canonical form.
 *
 * @param nodeName the object's name, which is the node's name
 * @param nodeUid the Node's UID for the owner reference (the object is then collected with its Node), when known
 * @param topologyPolicies the deprecated single-word form of policy and scope (e.g. {@code SingleNUMANodePodLevel});
 *     still a required field of v1alpha2
 * @param zones one per NUMA node
 * @param attributes node-wide attributes, sorted by name
 */
public record NodeResourceTopology(
        String nodeName,
        Optional<String> nodeUid,
        List<String> topologyPolicies,
        List<Zone> zones,
        List<Attribute> attributes) {

    public NodeResourceTopology {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(nodeUid, "nodeUid");
        topologyPolicies = List.copyOf(topologyPolicies);
        zones = List.copyOf(zones);
        attributes = List.copyOf(attributes);
    }

    /**
     * A topology zone.
     *
     * @param name e.g. {@code node-0}
     * @param type {@code Node} for a NUMA node
     * @param costs distance to every zone, this one included (empty when the machine reports none)
     * @param resources sorted by name
     * @param attributes sorted by name
     */
    public record Zone(
            String name, String type, List<Cost> costs, List<ResourceInfo> resources, List<Attribute> attributes) {

        public Zone {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            costs = List.copyOf(costs);
            resources = List.copyOf(resources);
            attributes = List.copyOf(attributes);
        }

        public Optional<ResourceInfo> resource(String resourceName) {
            return resources.stream().filter(r -> r.name().equals(resourceName)).findFirst();
        }
    }

    /** One resource of a zone; quantities in canonical Kubernetes form ({@code 24}, {@code 1500m}, {@code 96Gi}). */
    public record ResourceInfo(String name, String capacity, String allocatable, String available) {

        public ResourceInfo {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(capacity, "capacity");
            Objects.requireNonNull(allocatable, "allocatable");
            Objects.requireNonNull(available, "available");
        }
    }

    /** The cost (NUMA distance) of reaching zone {@code name}. */
    public record Cost(String name, long value) {

        public Cost {
            Objects.requireNonNull(name, "name");
        }
    }

    public record Attribute(String name, String value) {

        public Attribute {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }
}
