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

/** The CPUs and memory one container is pinned to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"numaNodes\":{\"x-kubernetes-list-type\":\"set\"}}}")
public record ContainerAllocation(
        @JsonPropertyDescription("Container name (init, sidecar or app container).") @Required
        String name,

        @JsonPropertyDescription("Exclusive (CPUs of its own), PodShared (the pod's shared pool) or NodeShared (the"
                + " node's shared pool).")
        @Required
        AssignmentType assignment,

        @JsonPropertyDescription("The cpuset the container runs on, as a Linux CPU list.")
        @Pattern(Formats.CPU_LIST_OR_EMPTY_REGEX)
        String cpus,

        @JsonPropertyDescription("The NUMA nodes of its memory (cpuset.mems).")
        List<Integer> numaNodes,

        @JsonPropertyDescription("Exclusive memory per resource (memory, hugepages-<size>); absent when shared.")
        Map<String, Quantity> memory) {

    public ContainerAllocation {
        numaNodes = ImmutableCopies.list(numaNodes);
        memory = ImmutableCopies.map(memory);
    }
}
