package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.List;
import java.util.Objects;

/** Memory manager settings: NUMA-pinned memory and huge pages for Guaranteed pods. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self.policy != 'Static' || has(self.reservedMemory) && self.reservedMemory.exists(r, 'memory' in"
                + " r.limits)",
        message = "the Static policy needs memory reserved for the system: add a reservedMemory entry with a memory"
                + " limit for at least one NUMA node",
        reason = "FieldValueRequired",
        fieldPath = ".reservedMemory")
// One entry per NUMA node: a list map keyed by numaNode, so the API server rejects duplicates and merges by node.
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"reservedMemory\":{\"x-kubernetes-list-type\":\"map\","
                + "\"x-kubernetes-list-map-keys\":[\"numaNode\"]}}}")
public record MemoryManager(
        @JsonPropertyDescription("None: no memory pinning. Static: containers of Guaranteed pods get their memory and"
                + " huge pages from the NUMA nodes their CPUs were aligned to. Static needs reservedMemory."
                + " Defaults to None.")
        @Default("None")
        MemoryManagerPolicy policy,

        @JsonPropertyDescription("Memory and huge pages kept for the system on each NUMA node, as the kubelet's"
                + " reservedMemory; at most one entry per NUMA node. Used by the Static policy, which needs a"
                + " memory reservation on at least one NUMA node.")
        @Size(max = 128)
        List<NumaMemoryReservation> reservedMemory) {

    public MemoryManager {
        policy = Objects.requireNonNullElse(policy, MemoryManagerPolicy.NONE);
        reservedMemory = ImmutableCopies.list(reservedMemory);
    }

    public static MemoryManager defaults() {
        return new MemoryManager(null, null);
    }
}
