package io.podnuma.crds.v1alpha1.policy.validation;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerOptions;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.CpuPartition;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.NumaMemoryReservation;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Re-checks what the CRD's OpenAPI schema and CEL rules enforce on a {@code NumaResourcePolicy} spec. The API server
 * checks a policy object, but the agent reads the spec from its own file, which nothing has validated, and the
 * operator renders that file: both use this one validator, so they refuse the same specs with the same words. Enum values
 * and unknown keys are refused earlier, when the YAML is read into the spec.
 *
 * <p>Every problem names the field path under the given root (e.g. {@code policy.cpuManager.reservedCpuCount}), the
 * value and what is allowed; all are returned at once, in a stable order: the spec's fields in their order, list
 * entries by index, map keys sorted.
 *
 * <p>A reader that could not bind some fields (the agent's file: a bad enum value, a list for a string) passes their
 * paths as unreadable: they hold their defaults in the spec, so a rule that pairs one of them with another field is
 * skipped rather than reported against a value the user never wrote.
 */
public final class PolicyValidator {

    static final int MAX_PRIORITY = 1000;
    static final int MIN_MAX_NUMA_NODES = 8;
    static final int MAX_MAX_NUMA_NODES = 1024;
    static final int MAX_RESERVED_CPU_COUNT = 8192;
    static final int MAX_RESERVED_CPUS_LENGTH = 1024;
    static final int MAX_RECONCILE_PERIOD_LENGTH = 32;
    static final int MAX_RESERVED_MEMORY_ENTRIES = 128;
    static final int MAX_NUMA_NODE = 1023;
    static final int MAX_LIMITS = 8;
    static final int MAX_QUANTITY_LENGTH = 64;
    static final int MAX_BUDGET_ANNOTATION_LENGTH = 317;
    static final int MAX_MATCH_EXPRESSIONS = 32;
    static final int MAX_MATCH_VALUES = 256;
    static final int MAX_MATCH_LABELS = 64;

    private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private final String root;
    private final Set<String> unreadable;
    private final List<String> problems = new ArrayList<>();

    private PolicyValidator(String root, Set<String> unreadable) {
        this.root = root;
        this.unreadable = Set.copyOf(unreadable);
    }

    /**
     * @param root the name the spec has in messages: {@code policy} in the agent file, {@code spec} in an object
     * @return the problems, empty when the spec is valid
     */
    public static List<String> validate(NumaResourcePolicySpec spec, String root) {
        return validate(spec, root, Set.of());
    }

    /**
     * {@link #validate(NumaResourcePolicySpec, String)} of a spec some of whose fields could not be read.
     *
     * @param unreadable paths under the root ({@code cpuManager.policy}, {@code memoryManager.reservedMemory[0]})
     *     that hold defaults instead of what the input said; already reported by the reader
     */
    public static List<String> validate(NumaResourcePolicySpec spec, String root, Set<String> unreadable) {
        PolicyValidator v = new PolicyValidator(root, unreadable);
        v.nodeSelector(spec.nodeSelector());
        v.range("priority", spec.priority(), 0, MAX_PRIORITY);
        v.range(
                "topologyManager.options.maxAllowableNumaNodes",
                spec.topologyManager().options().maxAllowableNumaNodes(),
                MIN_MAX_NUMA_NODES,
                MAX_MAX_NUMA_NODES);
        v.cpuManager(spec.cpuManager(), spec.topologyManager().policy());
        v.memoryManager(spec.memoryManager());
        v.podLevelResources(spec.podLevelResources());
        return List.copyOf(v.problems);
    }

    private void nodeSelector(LabelSelector selector) {
        if (selector == null) {
            return; // the agent's file needs no selector: the operator already chose this node
        }
        unknownKeys("nodeSelector", selector.getAdditionalProperties());
        List<LabelSelectorRequirement> expressions =
                selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
        if (expressions.size() > MAX_MATCH_EXPRESSIONS) {
            add("nodeSelector.matchExpressions has " + expressions.size() + " entries: allowed at most "
                    + MAX_MATCH_EXPRESSIONS);
        }
        for (int i = 0; i < expressions.size(); i++) {
            String at = "nodeSelector.matchExpressions[" + i + "]";
            LabelSelectorRequirement e = expressions.get(i);
            unknownKeys(at, e.getAdditionalProperties());
            List<String> values = e.getValues() == null ? List.of() : e.getValues();
            String op = e.getOperator();
            if (op == null || !OPERATORS.contains(op)) {
                add(at + ".operator " + (op == null ? "is missing" : quote(op))
                        + ": allowed In, NotIn, Exists, DoesNotExist");
            } else if ((op.equals("In") || op.equals("NotIn")) && values.isEmpty()) {
                add(at + ".values is empty: operator " + op + " needs at least one value");
            } else if ((op.equals("Exists") || op.equals("DoesNotExist")) && !values.isEmpty()) {
                add(at + ".values " + values + ": operator " + op + " takes no values");
            }
            if (values.size() > MAX_MATCH_VALUES) {
                add(at + ".values has " + values.size() + " entries: allowed at most " + MAX_MATCH_VALUES);
            }
        }
        if (selector.getMatchLabels() != null && selector.getMatchLabels().size() > MAX_MATCH_LABELS) {
            add("nodeSelector.matchLabels has " + selector.getMatchLabels().size() + " entries: allowed at most "
                    + MAX_MATCH_LABELS);
        }
    }

    private void cpuManager(CpuManager cm, TopologyManagerPolicy topologyPolicy) {
        String cpus = cm.reservedCpus();
        if (cpus != null) {
            String wrong = cpus.length() > MAX_RESERVED_CPUS_LENGTH
                    ? "allowed at most " + MAX_RESERVED_CPUS_LENGTH + " characters"
                    : PolicyFormats.cpuList(cpus);
            if (wrong != null) {
                add("cpuManager.reservedCpus " + quote(cpus) + ": " + wrong);
            }
        }
        range("cpuManager.reservedCpuCount", cm.reservedCpuCount(), 1, MAX_RESERVED_CPU_COUNT);
        if (cpus != null && cm.reservedCpuCount() != null) {
            add("cpuManager.reservedCpuCount " + cm.reservedCpuCount() + " is set together with reservedCpus "
                    + quote(cpus) + ": allowed at most one of reservedCpus and reservedCpuCount");
        }
        boolean isStatic = cm.policy() == CpuManagerPolicy.STATIC;
        boolean policyRead = readable("cpuManager.policy");
        if (isStatic
                && cpus == null
                && cm.reservedCpuCount() == null
                && readable("cpuManager.reservedCpus", "cpuManager.reservedCpuCount")) {
            add("cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the system, set"
                    + " reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)");
        }
        CpuManagerOptions o = cm.options();
        if (!isStatic && policyRead && o.anyEnabled()) {
            add("cpuManager.options " + enabled(o) + ": options need cpuManager.policy static (policy is none);"
                    + " the kubelet applies them to the static policy only");
        }
        if (!isStatic && policyRead && cm.partition() != CpuPartition.NONE && readable("cpuManager.partition")) {
            add("cpuManager.partition " + quote(cm.partition().name().toLowerCase(Locale.ROOT))
                    + ": needs cpuManager.policy static (policy is none); only the static policy has exclusive"
                    + " slices to partition");
        }
        exclusive(o.distributeCpusAcrossCores(), o.fullPcpusOnly(), "distributeCpusAcrossCores", "fullPcpusOnly");
        exclusive(
                o.distributeCpusAcrossCores(),
                o.distributeCpusAcrossNuma(),
                "distributeCpusAcrossCores",
                "distributeCpusAcrossNuma");
        exclusive(
                o.preferAlignCpusByUncoreCache(),
                o.distributeCpusAcrossCores(),
                "preferAlignCpusByUncoreCache",
                "distributeCpusAcrossCores");
        exclusive(
                o.preferAlignCpusByUncoreCache(),
                o.distributeCpusAcrossNuma(),
                "preferAlignCpusByUncoreCache",
                "distributeCpusAcrossNuma");
        if (o.alignBySocket()
                && topologyPolicy == TopologyManagerPolicy.SINGLE_NUMA_NODE
                && readable("topologyManager.policy")) {
            add("cpuManager.options.alignBySocket true: not allowed with topologyManager.policy single-numa-node"
                    + " (the kubelet rejects this pair; a single NUMA node is already the narrower boundary)");
        }
        reconcilePeriod(cm.reconcilePeriod());
    }

    private void reconcilePeriod(String period) {
        String field = "cpuManager.reconcilePeriod " + quote(period);
        BigDecimal nanos = period.length() > MAX_RECONCILE_PERIOD_LENGTH ? null : PolicyFormats.goDurationNanos(period);
        if (nanos == null) {
            add(field + ": allowed a duration of at most " + MAX_RECONCILE_PERIOD_LENGTH
                    + " characters such as 10s or 1m30s (units ns, us, ms, s, m, h)");
        } else if (nanos.compareTo(PolicyFormats.seconds(1)) < 0 || nanos.compareTo(PolicyFormats.seconds(3600)) > 0) {
            add(field + ": allowed 1s to 1h");
        }
    }

    private void memoryManager(MemoryManager mm) {
        List<NumaMemoryReservation> reservations = mm.reservedMemory() == null ? List.of() : mm.reservedMemory();
        if (reservations.size() > MAX_RESERVED_MEMORY_ENTRIES) {
            add("memoryManager.reservedMemory has " + reservations.size() + " entries: allowed at most "
                    + MAX_RESERVED_MEMORY_ENTRIES + " (one per NUMA node)");
        }
        Map<Integer, Integer> firstIndex = new HashMap<>();
        boolean reservesMemory = false;
        for (int i = 0; i < reservations.size(); i++) {
            String at = "memoryManager.reservedMemory[" + i + "]";
            NumaMemoryReservation r = reservations.get(i);
            if (r.numaNode() == null) {
                add(at + ".numaNode is missing: allowed a NUMA node id 0 to " + MAX_NUMA_NODE);
            } else {
                range(at + ".numaNode", r.numaNode(), 0, MAX_NUMA_NODE);
                Integer earlier = firstIndex.putIfAbsent(r.numaNode(), i);
                if (earlier != null) {
                    add(at + ".numaNode " + r.numaNode() + " repeats reservedMemory[" + earlier
                            + "]: allowed one entry per NUMA node");
                }
            }
            Map<String, Quantity> limits = r.limits() == null ? Map.of() : r.limits();
            if (limits.isEmpty() || limits.size() > MAX_LIMITS) {
                add(at + ".limits has " + limits.size() + " entries: allowed 1 to " + MAX_LIMITS
                        + " (memory and hugepages-<size>)");
            }
            for (Map.Entry<String, Quantity> e : new TreeMap<>(limits).entrySet()) {
                String key = at + ".limits." + e.getKey();
                if (!PolicyFormats.reservableResource(e.getKey())) {
                    add(at + ".limits: unknown resource " + quote(e.getKey())
                            + ": allowed memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi)");
                    continue;
                }
                reservesMemory |= e.getKey().equals("memory");
                String amount = amount(e.getValue());
                String wrong = amount.length() > MAX_QUANTITY_LENGTH
                        ? "allowed at most " + MAX_QUANTITY_LENGTH + " characters"
                        : PolicyFormats.positiveQuantity(amount);
                if (wrong != null) {
                    add(key + " " + quote(amount) + ": " + wrong);
                }
            }
        }
        if (mm.policy() == MemoryManagerPolicy.STATIC && !reservesMemory && readable("memoryManager.reservedMemory")) {
            add("memoryManager.reservedMemory has no memory limit: the Static policy needs memory reserved for the"
                    + " system, add an entry with a memory limit for at least one NUMA node (huge pages alone do"
                    + " not count)");
        }
    }

    private void podLevelResources(PodLevelResources plr) {
        String key = plr.budgetAnnotation();
        if (key == null) {
            return;
        }
        if (!plr.enabled() && readable("podLevelResources.enabled")) {
            add("podLevelResources.budgetAnnotation " + quote(key)
                    + ": only read when podLevelResources.enabled is true; remove it or set enabled: true");
        }
        String wrong = key.length() > MAX_BUDGET_ANNOTATION_LENGTH
                ? "allowed at most " + MAX_BUDGET_ANNOTATION_LENGTH + " characters"
                : PolicyFormats.annotationKey(key);
        if (wrong != null) {
            add("podLevelResources.budgetAnnotation " + quote(key) + ": " + wrong);
        }
    }

    /**
     * Whether every field was read as written: none is unreadable, inside an unreadable one, or holds one (a list
     * whose entry was unreadable is not the list the user wrote).
     */
    private boolean readable(String... fields) {
        for (String f : fields) {
            for (String u : unreadable) {
                if (u.equals(f) || inside(f, u) || inside(u, f)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean inside(String path, String parent) {
        return path.startsWith(parent + ".") || path.startsWith(parent + "[");
    }

    private void range(String field, Integer value, int min, int max) {
        if (value != null && (value < min || value > max)) {
            add(field + " " + value + ": allowed " + min + " to " + max);
        }
    }

    /** The CRD reports a pair on one of its fields; {@code field} is that one. */
    private void exclusive(boolean a, boolean b, String field, String other) {
        if (a && b) {
            add("cpuManager.options." + field + " true: not allowed with " + other + " true (the kubelet refuses"
                    + " the pair)");
        }
    }

    private void unknownKeys(String at, Map<String, Object> extra) {
        if (extra != null) {
            for (String k : new TreeSet<>(extra.keySet())) {
                add(at + ": unknown key " + quote(k));
            }
        }
    }

    private void add(String problem) {
        problems.add(root + "." + problem);
    }

    private static String enabled(CpuManagerOptions o) {
        List<String> on = new ArrayList<>();
        if (o.fullPcpusOnly()) {
            on.add("fullPcpusOnly");
        }
        if (o.distributeCpusAcrossNuma()) {
            on.add("distributeCpusAcrossNuma");
        }
        if (o.alignBySocket()) {
            on.add("alignBySocket");
        }
        if (o.distributeCpusAcrossCores()) {
            on.add("distributeCpusAcrossCores");
        }
        if (o.strictCpuReservation()) {
            on.add("strictCpuReservation");
        }
        if (o.preferAlignCpusByUncoreCache()) {
            on.add("preferAlignCpusByUncoreCache");
        }
        return String.join(", ", on);
    }

    /** The quantity as written: fabric8 splits {@code 1Gi} into amount {@code 1} and format {@code Gi}. */
    public static String amount(Quantity q) {
        return (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
    }

    private static String quote(String v) {
        return "\"" + v + "\"";
    }
}
