package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.List;

/** The machine as the agent discovered it from sysfs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{"
                + "\"sockets\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"id\"]},"
                + "\"numaNodes\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"id\"]},"
                + "\"l3Groups\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"id\"]}"
                + "}}")
public record NodeTopology(
        @JsonPropertyDescription("Online CPUs (hardware threads).") @Min(0)
        Integer cpuCount,

        @JsonPropertyDescription("NUMA nodes (the length of numaNodes; a scalar for printer columns).") @Min(0)
        Integer numaNodeCount,

        @JsonPropertyDescription("Hardware threads per physical core (2 with SMT on most machines).") @Min(1)
        Integer threadsPerCore,

        @JsonPropertyDescription("CPU packages.") List<Socket> sockets,

        @JsonPropertyDescription("NUMA nodes with their CPUs, memory, huge pages and distances.")
        List<NumaNode> numaNodes,

        @JsonPropertyDescription("Groups of CPUs sharing a last-level (L3) cache.")
        List<CacheGroup> l3Groups) {

    public NodeTopology {
        sockets = ImmutableCopies.list(sockets);
        numaNodes = ImmutableCopies.list(numaNodes);
        l3Groups = ImmutableCopies.list(l3Groups);
    }
}
