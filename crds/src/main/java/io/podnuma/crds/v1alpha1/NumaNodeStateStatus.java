package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import java.util.List;

/** What the node agent reports about its node; written only by that node's agent. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = JsonMergePatch.class, input = ApiSchemas.NODE_STATE_STATUS_LISTS)
public record NumaNodeStateStatus(
        @JsonPropertyDescription("The NumaResourcePolicy in force on this node.") @Size(max = 253)
        String policy,

        @JsonPropertyDescription("Hash of the rendered agent configuration in force; the operator compares it with"
                + " the policy's current one to count updated nodes.")
        @Size(max = 128)
        String configHash,

        @JsonPropertyDescription("The machine as discovered from sysfs.")
        NodeTopology topology,

        @JsonPropertyDescription("CPUs reserved for the system, as a Linux CPU list.")
        @Pattern(Formats.CPU_LIST_OR_EMPTY_REGEX)
        String reservedCpus,

        @JsonPropertyDescription(
                "The node's shared pool: CPUs that containers without exclusive CPUs run on, as a" + " Linux CPU list.")
        @Pattern(Formats.CPU_LIST_OR_EMPTY_REGEX)
        String sharedPool,

        @JsonPropertyDescription("How many CPUs are held exclusively by pods (bubbles and container slices).") @Min(0)
        Integer exclusiveCpus,

        @JsonPropertyDescription("Per-pod allocations on this node.")
        List<PodAllocation> allocations,

        @JsonPropertyDescription("Agent conditions: Ready (topology discovered, pods synced, pins applied),"
                + " KubeletConflict (the kubelet's own CPU, memory or topology manager is active, so the agent"
                + " does not write), Drift (a cpuset was found changed behind the agent's back and repaired)."
                + ApiSchemas.READY_MEANING)
        @Size(max = 16)
        List<Condition> conditions,

        @JsonPropertyDescription("The last error the agent hit.")
        AgentError lastError) {

    public static final String CONDITION_READY = "Ready";
    public static final String CONDITION_KUBELET_CONFLICT = "KubeletConflict";
    public static final String CONDITION_DRIFT = "Drift";

    public NumaNodeStateStatus {
        allocations = ImmutableCopies.list(allocations);
        conditions = ImmutableCopies.list(conditions);
    }
}
