package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Memory manager policies, spelled (capitalised) as in the kubelet's {@code memoryManagerPolicy}. */
public enum MemoryManagerPolicy {
    /** No memory pinning. */
    @JsonProperty("None")
    NONE,
    /** Guaranteed pods get memory (and huge pages) from a fixed set of NUMA nodes. */
    @JsonProperty("Static")
    STATIC
}
