package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The unit the topology manager aligns, as in the kubelet's {@code topologyManagerScope}. */
public enum TopologyManagerScope {
    /** One hint merge per container. */
    @JsonProperty("container")
    CONTAINER,
    /** One hint merge for the whole pod; with pod-level resources, the pod's budget becomes one aligned bubble. */
    @JsonProperty("pod")
    POD
}
