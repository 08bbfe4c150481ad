package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.podnuma.crds.v1alpha1.Formats;

/** CPUs sharing one last-level (L3, "uncore") cache. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CacheGroup(
        @JsonPropertyDescription("Cache id from sysfs (cache/index3/id).") @Required @Min(0)
        Integer id,

        @JsonPropertyDescription("The CPUs sharing this cache, as a Linux CPU list.")
        @Required
        @Pattern(Formats.CPU_LIST_REGEX)
        String cpus) {}
