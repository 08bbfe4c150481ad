package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import java.util.Objects;

/** What a {@link NumaResourcePolicy} asks for: the resource managers' settings on the nodes it selects. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(self.cpuManager.options.alignBySocket && self.topologyManager.policy == 'single-numa-node')",
        message = "alignBySocket cannot be used with topologyManager.policy single-numa-node: the kubelet rejects"
                + " this pair, a single NUMA node is already the narrower boundary",
        fieldPath = ".cpuManager.options.alignBySocket")
// Bounds keep the CEL cost of the selector rules below the API server's budget.
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"nodeSelector\":{\"properties\":{"
                + "\"matchExpressions\":{\"maxItems\":32,\"x-kubernetes-list-type\":\"atomic\","
                + "\"description\":\"Label requirements a node must all meet, ANDed with matchLabels; at most 32.\","
                + "\"items\":{\"properties\":{"
                + "\"key\":{\"description\":\"The node label the requirement is about.\"},"
                + "\"operator\":{\"description\":\"How the label is compared: In (its value is one of values),"
                + " NotIn (it is absent or not one of values), Exists, DoesNotExist.\"},"
                + "\"values\":{\"maxItems\":256,\"description\":\"The label values In and NotIn compare"
                + " with (at least one, at most 256); Exists and DoesNotExist take none.\"}}}},"
                + "\"matchLabels\":{\"maxProperties\":64,\"description\":\"Labels a node must carry with"
                + " exactly these values (label: value), ANDed with matchExpressions; at most 64.\"}}}}}")
public record NumaResourcePolicySpec(
        @JsonPropertyDescription("Which nodes this policy governs (matchLabels and matchExpressions, as in a"
                + " Deployment's selector); {} selects every node. A node selected by several policies goes"
                + " to the one with the highest priority, then the oldest; the others report Conflict.")
        @Required
        @ValidationRule(
                value = "!has(self.matchExpressions) || self.matchExpressions.all(e, e.operator in ['In',"
                        + " 'NotIn', 'Exists', 'DoesNotExist'])",
                message = "matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist")
        @ValidationRule(
                value = "!has(self.matchExpressions) || self.matchExpressions.all(e, !(e.operator in ['In',"
                        + " 'NotIn']) || has(e.values) && size(e.values) > 0)",
                message = "matchExpressions with operator In or NotIn need at least one value")
        @ValidationRule(
                value = "!has(self.matchExpressions) || self.matchExpressions.all(e, !(e.operator in"
                        + " ['Exists', 'DoesNotExist']) || !has(e.values) || size(e.values) == 0)",
                message = "matchExpressions with operator Exists or DoesNotExist take no values")
        LabelSelector nodeSelector,

        @JsonPropertyDescription("Breaks ties when several policies select the same node: the highest priority"
                + " wins, then the oldest policy. 0 to 1000; defaults to 0.")
        @Default("0")
        @Min(0)
        @Max(1000)
        Integer priority,

        @JsonPropertyDescription(
                "Topology manager: how CPU and memory are aligned to NUMA nodes and which pods are" + " admitted.")
        @Default("{}")
        TopologyManager topologyManager,

        @JsonPropertyDescription("CPU manager: exclusive CPUs for qualifying containers and pods.") @Default("{}")
        CpuManager cpuManager,

        @JsonPropertyDescription("Memory manager: NUMA-pinned memory and huge pages for Guaranteed pods.")
        @Default("{}")
        MemoryManager memoryManager,

        @JsonPropertyDescription("Pod-level resources (KEP-2837/KEP-5526): whether a pod's own budget is allocated as"
                + " one aligned unit.")
        @Default("{}")
        PodLevelResources podLevelResources,

        @JsonPropertyDescription("What happens to a pod that cannot be aligned: Warn (it runs unpinned on the shared"
                + " pool and gets a Warning event) or Evict (it is evicted with a Warning event). Defaults to"
                + " Warn.")
        @Default("Warn")
        AdmissionAction admission,

        @JsonPropertyDescription("Publish a NodeResourceTopology object per node so a NUMA-aware scheduler can place"
                + " pods. Defaults to false.")
        @Default("false")
        Boolean exportNodeResourceTopology) {

    public static final int DEFAULT_PRIORITY = 0;

    public NumaResourcePolicySpec {
        priority = Objects.requireNonNullElse(priority, DEFAULT_PRIORITY);
        topologyManager = Objects.requireNonNullElseGet(topologyManager, TopologyManager::defaults);
        cpuManager = Objects.requireNonNullElseGet(cpuManager, CpuManager::defaults);
        memoryManager = Objects.requireNonNullElseGet(memoryManager, MemoryManager::defaults);
        podLevelResources = Objects.requireNonNullElseGet(podLevelResources, PodLevelResources::defaults);
        admission = Objects.requireNonNullElse(admission, AdmissionAction.WARN);
        exportNodeResourceTopology = Objects.requireNonNullElse(exportNodeResourceTopology, false);
    }

    // Explicit accessors for components with CEL rules: an implicit one would carry the rules too, and the
    // generator would emit them twice (once from the field, once from the accessor).
    public LabelSelector nodeSelector() {
        return nodeSelector;
    }
}
