package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/** Topology manager options; each mirrors a kubelet {@code topologyManagerPolicyOptions} key. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TopologyManagerOptions(
        @JsonPropertyDescription("prefer-closest-numa-nodes: among alignments of equal width, prefer the NUMA nodes"
                + " with the smallest average distance between them. Defaults to false.")
        @Default("false")
        Boolean preferClosestNumaNodes,

        @JsonPropertyDescription("max-allowable-numa-nodes: the largest number of NUMA nodes a governed machine may"
                + " have; the agent refuses to manage a bigger one. The kubelet caps it at 8 because its merge"
                + " is exponential; podnuma's merge is not, so up to 1024 is accepted. Defaults to 8.")
        @Default("8")
        @Min(8)
        @Max(1024)
        Integer maxAllowableNumaNodes) {

    public static final int DEFAULT_MAX_ALLOWABLE_NUMA_NODES = 8;

    public TopologyManagerOptions {
        preferClosestNumaNodes = Objects.requireNonNullElse(preferClosestNumaNodes, false);
        maxAllowableNumaNodes = Objects.requireNonNullElse(maxAllowableNumaNodes, DEFAULT_MAX_ALLOWABLE_NUMA_NODES);
    }

    public static TopologyManagerOptions defaults() {
        return new TopologyManagerOptions(null, null);
    }
}
