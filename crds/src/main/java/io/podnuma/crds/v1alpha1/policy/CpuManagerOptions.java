package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * Static CPU manager policy options; each mirrors a kubelet {@code cpuManagerPolicyOptions} key. The exclusions are the
 * kubelet's own ({@code policy_options.go}); the rule that needs the topology policy lives on the spec.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(self.distributeCpusAcrossCores && self.fullPcpusOnly)",
        message = "distributeCpusAcrossCores and fullPcpusOnly cannot be used together: one spreads a container over"
                + " cores, the other gives it whole cores",
        fieldPath = ".distributeCpusAcrossCores")
@ValidationRule(
        value = "!(self.distributeCpusAcrossCores && self.distributeCpusAcrossNuma)",
        message = "distributeCpusAcrossCores and distributeCpusAcrossNuma cannot be used together",
        fieldPath = ".distributeCpusAcrossCores")
@ValidationRule(
        value = "!(self.distributeCpusAcrossCores && self.preferAlignCpusByUncoreCache)",
        message = "distributeCpusAcrossCores and preferAlignCpusByUncoreCache cannot be used together",
        fieldPath = ".preferAlignCpusByUncoreCache")
@ValidationRule(
        value = "!(self.distributeCpusAcrossNuma && self.preferAlignCpusByUncoreCache)",
        message = "distributeCpusAcrossNuma and preferAlignCpusByUncoreCache cannot be used together",
        fieldPath = ".preferAlignCpusByUncoreCache")
public record CpuManagerOptions(
        @JsonPropertyDescription("full-pcpus-only: give exclusive CPUs as whole physical cores only; a request that is"
                + " not a multiple of the threads per core is rejected (SMTAlignmentError).")
        @Default("false")
        Boolean fullPcpusOnly,

        @JsonPropertyDescription("distribute-cpus-across-numa: when a container needs more than one NUMA node, take"
                + " the same number of CPUs from each. Not with distributeCpusAcrossCores or"
                + " preferAlignCpusByUncoreCache.")
        @Default("false")
        Boolean distributeCpusAcrossNuma,

        @JsonPropertyDescription("align-by-socket: treat the socket, not the NUMA node, as the alignment boundary."
                + " Not with topologyManager.policy single-numa-node.")
        @Default("false")
        Boolean alignBySocket,

        @JsonPropertyDescription("distribute-cpus-across-cores: spread a container's CPUs over distinct physical"
                + " cores instead of packing sibling threads. Not with fullPcpusOnly,"
                + " distributeCpusAcrossNuma or preferAlignCpusByUncoreCache.")
        @Default("false")
        Boolean distributeCpusAcrossCores,

        @JsonPropertyDescription(
                "strict-cpu-reservation: reserved CPUs leave the shared pool too, so no pod runs on" + " them.")
        @Default("false")
        Boolean strictCpuReservation,

        @JsonPropertyDescription("prefer-align-cpus-by-uncorecache: best effort to take a container's CPUs from as"
                + " few last-level-cache (L3) groups as possible. Not with distributeCpusAcrossNuma or"
                + " distributeCpusAcrossCores.")
        @Default("false")
        Boolean preferAlignCpusByUncoreCache) {

    public CpuManagerOptions {
        fullPcpusOnly = Objects.requireNonNullElse(fullPcpusOnly, false);
        distributeCpusAcrossNuma = Objects.requireNonNullElse(distributeCpusAcrossNuma, false);
        alignBySocket = Objects.requireNonNullElse(alignBySocket, false);
        distributeCpusAcrossCores = Objects.requireNonNullElse(distributeCpusAcrossCores, false);
        strictCpuReservation = Objects.requireNonNullElse(strictCpuReservation, false);
        preferAlignCpusByUncoreCache = Objects.requireNonNullElse(preferAlignCpusByUncoreCache, false);
    }

    public static CpuManagerOptions defaults() {
        return new CpuManagerOptions(null, null, null, null, null, null);
    }

    /** Whether any option is switched on (options need the static policy). */
    public boolean anyEnabled() {
        return fullPcpusOnly
                || distributeCpusAcrossNuma
                || alignBySocket
                || distributeCpusAcrossCores
                || strictCpuReservation
                || preferAlignCpusByUncoreCache;
    }
}
