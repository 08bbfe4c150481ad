package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One node on which the policy is not working, and why. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FailingNode(
        @JsonPropertyDescription("Node name.") @Required @Size(max = 253)
        String node,

        @JsonPropertyDescription("Machine-readable reason in CamelCase, e.g. KubeletConflict, AgentNotReady.")
        @Required
        @Size(max = 128)
        String reason,

        @JsonPropertyDescription("Human-readable detail.") @Size(max = 1024)
        String message) {}
