package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/** The ACPI SLIT distance from one NUMA node to another (10 means local). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NumaDistance(
        @JsonPropertyDescription("The other NUMA node's id.") @Required @Min(0)
        Integer numaNode,

        @JsonPropertyDescription("Relative distance, 10 for the node itself.") @Required @Min(0)
        Integer distance) {}
