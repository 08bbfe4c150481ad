package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.Formats;

/** The huge pages of one size on one NUMA node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HugePages(
        @JsonPropertyDescription("Page size as in the resource name hugepages-<size>, e.g. 2Mi or 1Gi.")
        @Required
        @Pattern(Formats.PAGE_SIZE_REGEX)
        String pageSize,

        @JsonPropertyDescription("Memory held by pre-allocated pages of this size (pages times size).") @Required
        Quantity total) {}
