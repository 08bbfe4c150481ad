package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import java.util.List;

/** What the operator observed for a {@link NumaResourcePolicy}; written only by the operator. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = JsonMergePatch.class, input = ApiSchemas.STATUS_LISTS)
public record NumaResourcePolicyStatus(
        @JsonPropertyDescription("The metadata.generation of the spec this status describes.") @Min(0)
        Long observedGeneration,

        @JsonPropertyDescription("Standard conditions: Ready (every matched node applies the policy), Progressing"
                + " (a rollout is under way), Degraded (some nodes fail, see failingNodes), Conflict (some"
                + " selected nodes are governed by another policy)."
                + ApiSchemas.READY_MEANING)
        @Size(max = 16)
        List<Condition> conditions,

        @JsonPropertyDescription("Nodes this policy governs.") @Min(0)
        Integer nodesMatched,

        @JsonPropertyDescription("Governed nodes whose agent is ready and applies the current spec.") @Min(0)
        Integer nodesReady,

        @JsonPropertyDescription("Governed nodes whose agent runs the current spec (config hash matches).") @Min(0)
        Integer nodesUpdated,

        @JsonPropertyDescription("Governed nodes whose agent reports a problem.") @Min(0)
        Integer nodesDegraded,

        @JsonPropertyDescription("Exclusive CPUs handed out across governed nodes.") @Min(0)
        Integer exclusiveCpusAllocated,

        @JsonPropertyDescription("Pods with pinned CPUs or memory across governed nodes.") @Min(0)
        Integer podsPinned,

        @JsonPropertyDescription("Up to 20 failing nodes with the reason; see each node's NumaNodeState for more.")
        @Size(max = 20)
        List<FailingNode> failingNodes) {

    public static final String CONDITION_READY = "Ready";
    public static final String CONDITION_PROGRESSING = "Progressing";
    public static final String CONDITION_DEGRADED = "Degraded";
    public static final String CONDITION_CONFLICT = "Conflict";

    public NumaResourcePolicyStatus {
        conditions = ImmutableCopies.list(conditions);
        failingNodes = ImmutableCopies.list(failingNodes);
    }
}
