package io.podnuma.testkit.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a soak counts per fault kind (injections, violations, time to converge after the fault, for a leader's fault
 * the time until a leader acts again) and which pods' placement changed and why; renders the table the soak prints.
 */
public final class SoakTally {

    private final Map<FaultKind, Integer> injections = new EnumMap<>(FaultKind.class);
    /** Of the injections that aim at a point (a crash at a moment of the agent's run), those that reached it. */
    private final Map<FaultKind, Integer> aimed = new EnumMap<>(FaultKind.class);

    private final Map<FaultKind, Integer> reached = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, List<Duration>> convergence = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, List<Duration>> takeover = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, List<Violation>> violations = new EnumMap<>(FaultKind.class);
    private final Map<String, Integer> placementChanges = new TreeMap<>();

    public void injected(FaultKind k) {
        injections.merge(k, 1, Integer::sum);
    }

    /**
     * An injection that aimed at a point of the agent's run (a crash during its start, its sync, its restore...) and
     * whether the run was there when it struck; an aimed injection that missed counts as an injection, not as reached.
     */
    public void aimed(FaultKind k, boolean wasReached) {
        aimed.merge(k, 1, Integer::sum);
        if (wasReached) {
            reached.merge(k, 1, Integer::sum);
        }
    }

    public int reached(FaultKind k) {
        return reached.getOrDefault(k, 0);
    }

    /** The kinds of {@code offered} never injected. */
    public List<FaultKind> neverInjected(List<FaultKind> offered) {
        return offered.stream().filter(k -> injections(k) == 0).toList();
    }

    /** The kinds aimed at a point that never reached it. */
    public List<FaultKind> neverReached() {
        return aimed.keySet().stream().filter(k -> reached(k) == 0).toList();
    }

    public void converged(FaultKind k, Duration d) {
        convergence.computeIfAbsent(k, x -> new ArrayList<>()).add(d);
    }

    /** After a fault that ended a leadership: the time until another leader (or the restarted one) acted. */
    public void tookOver(FaultKind k, Duration d) {
        takeover.computeIfAbsent(k, x -> new ArrayList<>()).add(d);
    }

    public void violated(FaultKind k, Violation v) {
        violations.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
    }

    /** A pod's exclusive CPUs changed or went while it lived; {@code why} names the fault and the cause. */
    public void placementChanged(String why) {
        placementChanges.merge(why, 1, Integer::sum);
    }

    public int injections() {
        return injections.values().stream().mapToInt(Integer::intValue).sum();
    }

    public List<Violation> violations() {
        return violations.values().stream().flatMap(List::stream).toList();
    }

    public int injections(FaultKind k) {
        return injections.getOrDefault(k, 0);
    }

    /** The {@code q}-quantile (0..1) by nearest rank, or null when nothing was measured. */
    public static Duration quantile(List<Duration> ds, double q) {
        if (ds.isEmpty()) {
            return null;
        }
        List<Duration> sorted = ds.stream().sorted().toList();
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** The table: one line per kind injected, then the placement changes. */
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                "%-30s %10s %10s %12s %12s %9s%n",
                "fault", "injections", "violations", "converge p50", "converge p99", "reached"));
        for (FaultKind k : FaultKind.values()) {
            int n = injections(k);
            if (n == 0) {
                continue;
            }
            List<Duration> ds = convergence.getOrDefault(k, List.of());
            b.append(String.format(
                    "%-30s %10d %10d %12s %12s %9s%n",
                    k.name().toLowerCase(java.util.Locale.ROOT),
                    n,
                    violations.getOrDefault(k, List.of()).size(),
                    millis(quantile(ds, 0.5)),
                    millis(quantile(ds, 0.99)),
                    aimed.containsKey(k) ? reached(k) + "/" + aimed.get(k) : "-"));
        }
        b.append(String.format(
                "%-30s %10d %10d%n", "total", injections(), violations().size()));
        if (!takeover.isEmpty()) {
            b.append(String.format("%-30s %10s %12s %12s%n", "takeover", "count", "p50", "p99"));
            takeover.forEach((k, ds) -> b.append(String.format(
                    "%-30s %10d %12s %12s%n",
                    k.name().toLowerCase(java.util.Locale.ROOT),
                    ds.size(),
                    millis(quantile(ds, 0.5)),
                    millis(quantile(ds, 0.99)))));
        }
        if (placementChanges.isEmpty()) {
            b.append("pods whose placement changed: none\n");
        } else {
            b.append("pods whose placement changed:\n");
            placementChanges.forEach((why, n) -> b.append(String.format("  %5d  %s%n", n, why)));
        }
        return b.toString();
    }

    private static String millis(Duration d) {
        return d == null ? "-" : d.toMillis() + " ms";
    }
}
