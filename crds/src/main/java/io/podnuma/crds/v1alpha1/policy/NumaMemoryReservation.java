package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.schema.JsonMergePatch;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.Map;

/** Memory kept for the system on one NUMA node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
// A bound on each amount's length keeps the CEL cost of the quantity rule within the API server's budget.
@SchemaCustomizer(
        value = JsonMergePatch.class,
        input = "{\"properties\":{\"limits\":{\"additionalProperties\":{\"maxLength\":64}}}}")
public record NumaMemoryReservation(
        @JsonPropertyDescription("The NUMA node id, as in /sys/devices/system/node/node<id>.")
        @Required
        @Min(0)
        @Max(1023)
        Integer numaNode,

        @JsonPropertyDescription("Amount per resource: memory and/or hugepages-<size> (e.g. hugepages-2Mi,"
                + " hugepages-1Gi), each a positive quantity such as 1Gi or 512Mi.")
        @Required
        @Size(min = 1, max = 8)
        @ValidationRule(
                value = "self.all(k, k == 'memory' || k.matches('^hugepages-[1-9][0-9]*(Ki|Mi|Gi)$'))",
                message = "only memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi) can be reserved")
        @ValidationRule(
                value = "self.all(k, isQuantity(string(self[k]))"
                        + " && quantity(string(self[k])).isGreaterThan(quantity('0')))",
                message = "each amount must be a positive quantity such as 1Gi or 512Mi (the kubelet rejects a zero"
                        + " reservation)")
        Map<String, Quantity> limits) {

    public NumaMemoryReservation {
        limits = ImmutableCopies.map(limits);
    }

    // Explicit accessors for components with CEL rules: an implicit one would carry the rules too, and the
    // generator would emit them twice (once from the field, once from the accessor).
    public Map<String, Quantity> limits() {
        return limits;
    }
}
