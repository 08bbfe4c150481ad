package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.podnuma.crds.v1alpha1.Formats;
import java.util.Objects;

/** CPU manager settings: which containers get exclusive CPUs and which CPUs are kept for the system. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "!(has(self.reservedCpus) && has(self.reservedCpuCount))",
        message = "set at most one of reservedCpus and reservedCpuCount",
        fieldPath = ".reservedCpuCount")
@ValidationRule(
        value = "self.policy != 'static' || has(self.reservedCpus) || has(self.reservedCpuCount)",
        message = "the static policy needs CPUs reserved for the system: set reservedCpus or reservedCpuCount",
        reason = "FieldValueRequired",
        fieldPath = ".reservedCpus")
@ValidationRule(
        value = "self.policy == 'static' || !(" + CpuManager.ANY_OPTION + ")",
        message = "options need policy static: the kubelet applies them to the static policy only",
        fieldPath = ".options")
@ValidationRule(
        value = "self.policy == 'static' || !has(self.partition) || self.partition == 'none'",
        message = "partition needs policy static: only the static policy has exclusive slices to partition",
        fieldPath = ".partition")
public record CpuManager(
        @JsonPropertyDescription("none: every container shares the node's CPUs. static: containers of Guaranteed"
                + " pods that ask for whole CPUs (and, under pod-level resources, the pod's CPU budget) get"
                + " exclusive CPUs. Defaults to none.")
        @Default("none")
        CpuManagerPolicy policy,

        @JsonPropertyDescription("CPUs kept for the system and never handed out exclusively, as a Linux CPU list"
                + " (e.g. 0-1,32-33; ascending, without overlap). Mutually exclusive with reservedCpuCount;"
                + " the static policy needs one of the two.")
        @Size(max = 1024)
        @ValidationRule(value = Formats.CPU_LIST_SYNTAX_RULE, message = Formats.CPU_LIST_SYNTAX_MESSAGE)
        @ValidationRule(value = Formats.CPU_LIST_ORDER_RULE, message = Formats.CPU_LIST_ORDER_MESSAGE)
        String reservedCpus,

        @JsonPropertyDescription("How many CPUs to keep for the system; the agent picks them as the kubelet does"
                + " (whole physical cores, lowest ids first). Mutually exclusive with reservedCpus.")
        @Min(1)
        @Max(8192)
        Integer reservedCpuCount,

        @JsonPropertyDescription("Options of the static policy, as in the kubelet's cpuManagerPolicyOptions; they"
                + " need policy static.")
        @Default("{}")
        CpuManagerOptions options,

        @JsonPropertyDescription("How often every container's cpuset is re-applied and drift repaired, as a duration"
                + " (e.g. 10s, 1m30s; between 1s and 1h). Defaults to 10s.")
        @Default("10s")
        @Size(max = 32)
        @Pattern(Formats.DURATION_REGEX)
        @ValidationRule(
                value = "!self.matches('" + Formats.DURATION_REGEX + "')"
                        + " || duration(self) >= duration('1s') && duration(self) <= duration('1h')",
                message = "must be between 1s and 1h")
        String reconcilePeriod,

        @JsonPropertyDescription("none: exclusive slices are exclusive by their cpusets alone, as the kubelet makes"
                + " them. root or isolated: each exclusive slice (a pod budget's CPUs, else a container's exclusive"
                + " CPUs) is also made a cgroup v2 cpuset partition of that type, so no other task of the node (a"
                + " system daemon, a process started outside Kubernetes) can run there; isolated also turns off"
                + " load balancing within it. Needs policy static, cgroup v2 and Linux 6.7 or newer; where the node"
                + " cannot, the slices stay exclusive by their cpusets and the node's NumaNodeState says why"
                + " (condition Partitioned). Defaults to none.")
        @Default("none")
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = CpuPartition.NoneFilter.class)
        CpuPartition partition) {

    public static final String DEFAULT_RECONCILE_PERIOD = "10s";

    // CEL sees the options as a typed object, not a map, so each field is named.
    static final String ANY_OPTION = "self.options.fullPcpusOnly || self.options.distributeCpusAcrossNuma"
            + " || self.options.alignBySocket || self.options.distributeCpusAcrossCores"
            + " || self.options.strictCpuReservation || self.options.preferAlignCpusByUncoreCache";

    public CpuManager {
        policy = Objects.requireNonNullElse(policy, CpuManagerPolicy.NONE);
        options = Objects.requireNonNullElseGet(options, CpuManagerOptions::defaults);
        reconcilePeriod = Objects.requireNonNullElse(reconcilePeriod, DEFAULT_RECONCILE_PERIOD);
        partition = Objects.requireNonNullElse(partition, CpuPartition.NONE);
    }

    /** Without partitions (the default), as most policies are written. */
    public CpuManager(
            CpuManagerPolicy policy,
            String reservedCpus,
            Integer reservedCpuCount,
            CpuManagerOptions options,
            String reconcilePeriod) {
        this(policy, reservedCpus, reservedCpuCount, options, reconcilePeriod, null);
    }

    public static CpuManager defaults() {
        return new CpuManager(null, null, null, null, null, null);
    }

    /** The same settings with {@code partition}. */
    public CpuManager withPartition(CpuPartition partition) {
        return new CpuManager(policy, reservedCpus, reservedCpuCount, options, reconcilePeriod, partition);
    }

    // Explicit accessors for components with CEL rules: an implicit one would carry the rules too, and the
    // generator would emit them twice (once from the field, once from the accessor).
    public String reservedCpus() {
        return reservedCpus;
    }

    public String reconcilePeriod() {
        return reconcilePeriod;
    }
}
