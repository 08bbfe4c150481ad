package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonProperty;

/** CPU manager policies, as in the kubelet's {@code cpuManagerPolicy}. */
public enum CpuManagerPolicy {
    /** Every container runs on the shared pool. */
    @JsonProperty("none")
    NONE,
    /** Qualifying containers get exclusive CPUs. */
    @JsonProperty("static")
    STATIC
}
