package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Identifies the node a {@link NumaNodeState} describes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NumaNodeStateSpec(
        @JsonPropertyDescription("The Node this object describes; equal to metadata.name.")
        @Required
        @Size(min = 1, max = 253)
        String nodeName) {}
