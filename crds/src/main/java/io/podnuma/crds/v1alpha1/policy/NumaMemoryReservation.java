package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.ImmutableCopies;
import java.util.Map;

/** Memory kept for the system on one NUMA node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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
                messageExpression = "'unsupported resource ' + self.filter(k, k != 'memory' &&"
                        + " !k.matches('^hugepages-[1-9][0-9]*(Ki|Mi|Gi)$')).join(', ')"
                        + " + ': use memory or hugepages-<size> such as hugepages-2Mi'")
        @ValidationRule(
                value = "self.all(k, isQuantity(string(self[k])) && quantity(string(self[k])).sign() > 0)",
                messageExpression = "'must be positive quantities such as 1Gi; invalid: ' + self.filter(k,"
                        + " !isQuantity(string(self[k])) || quantity(string(self[k])).sign() <= 0)"
                        + ".map(k, k + '=' + string(self[k])).join(', ')")
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
