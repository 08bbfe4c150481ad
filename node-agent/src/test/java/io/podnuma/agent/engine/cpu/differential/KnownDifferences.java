package io.podnuma.agent.engine.cpu.differential;

import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The allow-list: every way the Java engine deliberately differs from the kubelet v1.37.2, by name
 * and reason. A case counts as an intended difference when each of its differing operations (and a
 * kubelet hang) is explained by an entry; anything else fails the differential test.
 */
final class KnownDifferences {

    /** Explains the differences of one operation ({@link Comparison#BEFORE_OPS} for the configuration). */
    interface Explainer {
        boolean explains(Comparison c, int op, List<String> diffs);
    }

    /** One intended difference. */
    record Entry(String name, String reason, Explainer explainer) {}

    static final Entry BUSY_CPUS = new Entry(
            "kubelet-whole-element-claims-on-asymmetric-machines",
            "on machines whose cores, sockets, NUMA nodes or L3 groups differ in size (offline CPUs) the kubelet"
                    + " counts an element as free when its free CPUs equal a machine-wide average (integer"
                    + " division) and then claims all of the element's CPUs, counting each: busy and reserved CPUs"
                    + " (a CPU goes to two containers, or a container gets fewer CPUs than requested) and CPUs"
                    + " outside the NUMA-aligned set it was given (alignment lost although enough aligned CPUs"
                    + " were free). KubeletFaults finds the first such grant on the kubelet's own state. podnuma"
                    + " claims only the element's free CPUs. From that grant on the two states part and later"
                    + " operations are not compared. Where the claim happens in the aligned first pass of a"
                    + " request that then fails, only \"available=N\" differs (the kubelet's is larger: its"
                    + " first pass used up fewer real CPUs); that too is explained.",
            KnownDifferences::busyCpus);

    static final Entry HANG = new Entry(
            "kubelet-hangs-in-distributed-search",
            "with distribute-cpus-across-numa the kubelet's takeByTopologyNUMADistributed can loop forever: its"
                    + " remainder search accepts a NUMA subset whose free CPUs add up to the remainder although it"
                    + " holds too few whole CPU groups (full-pcpus-only), and with align-by-socket a combination"
                    + " without a feasible remainder subset can win; placing the remainder then never ends."
                    + " podnuma counts whole groups and stops a pass that places nothing. Everything before the"
                    + " hang must agree.",
            (c, op, diffs) -> c.kubelet().hang() && op == c.kubelet().ops().size() && diffs.isEmpty());

    static final Entry REWORDED_REFUSALS = new Entry(
            "reworded-configuration-refusals",
            "both refuse the configuration; podnuma's message says \"Topology\" (upstream: \"Topolgy\") and gives"
                    + " the socket and NUMA counts",
            (c, op, diffs) -> op == Comparison.BEFORE_OPS
                    && c.java().createError() != null
                    && c.kubelet().createError() != null
                    && diffs.stream().allMatch(d -> d.startsWith("refusal message:"))
                    && (c.kubelet().createError().startsWith("Topolgy manager single-numa-node policy")
                            || c.kubelet()
                                    .createError()
                                    .startsWith("Align by socket is not compatible with hardware")));

    static final List<Entry> ALL = List.of(BUSY_CPUS, HANG, REWORDED_REFUSALS);

    private KnownDifferences() {}

    /**
     * The entries that together explain every difference of a comparison (in the order first used),
     * or empty when some difference is unexplained.
     */
    static Optional<List<Entry>> explaining(Comparison c) {
        List<Entry> used = new ArrayList<>();
        Map<Integer, List<String>> groups = new java.util.TreeMap<>(c.byOp());
        if (c.kubelet().hang()) {
            groups.putIfAbsent(c.kubelet().ops().size(), List.of());
        }
        for (var g : groups.entrySet()) {
            Optional<Entry> e = ALL.stream()
                    .filter(x -> x.explainer().explains(c, g.getKey(), g.getValue()))
                    .findFirst();
            if (e.isEmpty()) {
                return Optional.empty();
            }
            if (!used.contains(e.get())) {
                used.add(e.get());
            }
        }
        return Optional.of(used);
    }

    private static final Pattern NOT_ENOUGH =
            Pattern.compile("not enough cpus available to satisfy request: requested=(\\d+), available=(\\d+)");

    private static boolean busyCpus(Comparison c, int op, List<String> diffs) {
        if (op == Comparison.BEFORE_OPS || op >= c.kubelet().ops().size()) {
            return false;
        }
        // The cause is the machine-wide averages: on a symmetric machine a fault would be news.
        if (!asymmetric(c.input().topology())) {
            return false;
        }
        OptionalInt fault = KubeletFaults.firstFault(c.input(), c.kubelet());
        if (fault.isPresent() && op >= fault.getAsInt()) {
            return true;
        }
        if (diffs.size() != 1 || !diffs.getFirst().startsWith("error message:")) {
            return false;
        }
        Matcher j = NOT_ENOUGH.matcher(String.valueOf(c.java().ops().get(op).errorMessage()));
        Matcher k = NOT_ENOUGH.matcher(String.valueOf(c.kubelet().ops().get(op).errorMessage()));
        return j.matches()
                && k.matches()
                && j.group(1).equals(k.group(1))
                && Integer.parseInt(k.group(2)) > Integer.parseInt(j.group(2));
    }

    /** True when cores, sockets, NUMA nodes or L3 groups differ in size (offline CPUs, odd layouts). */
    static boolean asymmetric(CpuTopology t) {
        return t.coreIds().stream().anyMatch(id -> t.cpusInCore(id).size() != t.cpusPerCore())
                || t.socketIds().stream().anyMatch(id -> t.cpusInSocket(id).size() != t.cpusPerSocket())
                || t.uncoreCacheIds().stream()
                        .anyMatch(id -> t.cpusInUncoreCache(id).size() != t.cpusPerUncoreCache())
                || t.numaNodeIds().stream()
                                .map(id -> t.cpusInNumaNode(id).size())
                                .distinct()
                                .count()
                        > 1;
    }
}
