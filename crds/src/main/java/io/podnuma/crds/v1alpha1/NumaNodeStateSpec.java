package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Identifies the node a {@link NumaNodeState} describes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NumaNodeStateSpec(
        @JsonPropertyDescription("The Node this object describes; equal to metadata.name and immutable.")
        @Required
        @Size(min = 1, max = 253)
        @ValidationRule(value = "self == oldSelf", message = "nodeName is immutable")
        String nodeName) {

    // Explicit accessors for components with CEL rules: an implicit one would carry the rules too, and the
    // generator would emit them twice (once from the field, once from the accessor).
    public String nodeName() {
        return nodeName;
    }
}
