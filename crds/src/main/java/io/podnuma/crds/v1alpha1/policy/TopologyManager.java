package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import java.util.Objects;

/** Topology manager settings: how CPU and memory hints are merged and when a pod is admitted. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TopologyManager(
        @JsonPropertyDescription("How hints of the CPU and memory managers are merged and which pods are admitted:"
                + " none (no alignment), best-effort (always admit, align when possible),"
                + " restricted (admit only with a preferred alignment),"
                + " single-numa-node (admit only what fits one NUMA node). Defaults to none.")
        @Default("none")
        TopologyManagerPolicy policy,

        @JsonPropertyDescription("What one alignment covers: container (each container alone) or pod (the whole"
                + " pod; with pod-level resources the pod's budget becomes one aligned bubble shared by its"
                + " containers). Defaults to container.")
        @Default("container")
        TopologyManagerScope scope,

        @JsonPropertyDescription("Options of the topology manager, as in the kubelet's topologyManagerPolicyOptions.")
        @Default("{}")
        TopologyManagerOptions options) {

    public TopologyManager {
        policy = Objects.requireNonNullElse(policy, TopologyManagerPolicy.NONE);
        scope = Objects.requireNonNullElse(scope, TopologyManagerScope.CONTAINER);
        options = Objects.requireNonNullElseGet(options, TopologyManagerOptions::defaults);
    }

    public static TopologyManager defaults() {
        return new TopologyManager(null, null, null);
    }
}
