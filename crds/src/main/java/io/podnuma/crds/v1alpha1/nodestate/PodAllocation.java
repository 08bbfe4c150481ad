package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.Formats;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.List;
import java.util.Map;

/** What one pod holds on the node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"containers\":{\"x-kubernetes-list-type\":\"map\","
                + "\"x-kubernetes-list-map-keys\":[\"name\"]},"
                + "\"numaNodes\":{\"x-kubernetes-list-type\":\"set\"}}}")
public record PodAllocation(
        @JsonPropertyDescription("Pod namespace.") @Required String namespace,
        @JsonPropertyDescription("Pod name.") @Required String name,

        @JsonPropertyDescription("Pod UID; allocations belong to one incarnation of a pod.")
        @Required
        @Pattern(Formats.UID_REGEX)
        String uid,

        @JsonPropertyDescription("Pod scope with a pod budget: the pod's whole aligned CPU set (the bubble), a Linux"
                + " CPU list. The pod's shared pool is this minus its containers' exclusive CPUs.")
        @Pattern(Formats.CPU_LIST_OR_EMPTY_REGEX)
        String cpus,

        @JsonPropertyDescription("The NUMA nodes the pod is aligned to.")
        List<Integer> numaNodes,

        @JsonPropertyDescription(
                "Pod scope with a pod budget: memory held for the pod per resource (memory," + " hugepages-<size>).")
        Map<String, Quantity> memory,

        @JsonPropertyDescription("Per container.") List<ContainerAllocation> containers) {

    public PodAllocation {
        numaNodes = ImmutableCopies.list(numaNodes);
        memory = ImmutableCopies.map(memory);
        containers = ImmutableCopies.list(containers);
    }
}
