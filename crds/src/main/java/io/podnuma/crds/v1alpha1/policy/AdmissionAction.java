package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What the node agent does with a pod it cannot align under the policy. */
public enum AdmissionAction {
    /** Leave the pod running unpinned and record a Warning event on it. */
    @JsonProperty("Warn")
    WARN,
    /** Evict the pod and record why in a Warning event. */
    @JsonProperty("Evict")
    EVICT
}
