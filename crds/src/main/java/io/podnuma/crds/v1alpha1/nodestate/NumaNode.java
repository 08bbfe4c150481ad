package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.Formats;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.List;

/** One NUMA node: its CPUs, memory and distances. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{"
                + "\"hugepages\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"pageSize\"]},"
                + "\"distances\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"numaNode\"]}"
                + "}}")
public record NumaNode(
        @JsonPropertyDescription("NUMA node id, as in /sys/devices/system/node/node<id>.") @Required @Min(0)
        Integer id,

        @JsonPropertyDescription("The node's online CPUs, as a Linux CPU list; empty for a memory-only node.")
        @Required
        @Pattern(Formats.CPU_LIST_OR_EMPTY_REGEX)
        String cpus,

        @JsonPropertyDescription("Total memory of the node (MemTotal).")
        Quantity memory,

        @JsonPropertyDescription("Pre-allocated huge pages per page size.")
        List<HugePages> hugepages,

        @JsonPropertyDescription("Distance to every NUMA node, this one included.")
        List<NumaDistance> distances) {

    public NumaNode {
        hugepages = ImmutableCopies.list(hugepages);
        distances = ImmutableCopies.list(distances);
    }
}
