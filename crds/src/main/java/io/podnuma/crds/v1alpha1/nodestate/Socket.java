package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.Formats;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.List;

/** One CPU package. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"numaNodes\":{\"x-kubernetes-list-type\":\"set\"}}}")
public record Socket(
        @JsonPropertyDescription("Physical package id from sysfs (topology/physical_package_id).") @Required @Min(0)
        Integer id,

        @JsonPropertyDescription("The socket's online CPUs, as a Linux CPU list.")
        @Required
        @Pattern(Formats.CPU_LIST_REGEX)
        String cpus,

        @JsonPropertyDescription("Ids of the NUMA nodes with CPUs in this socket.")
        List<Integer> numaNodes) {

    public Socket {
        numaNodes = ImmutableCopies.list(numaNodes);
    }
}
