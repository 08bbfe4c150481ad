package io.podnuma.bench.agent;

import io.podnuma.bench.FigureTable;
import io.podnuma.bench.FigureTable.Row;
import io.podnuma.bench.agent.AgentBench.CallResult;
import io.podnuma.bench.agent.AgentBench.Footprint;
import io.podnuma.bench.agent.AgentBench.PinResult;
import io.podnuma.bench.agent.AgentBench.PodResourcesResult;
import io.podnuma.bench.agent.AgentBench.PoolResult;
import io.podnuma.bench.agent.AgentBench.Result;
import io.podnuma.testkit.prometheus.PromHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The agent bench's figures as one Markdown table (figure, baseline of the same run, ratio, budget) plus notes. */
public final class BenchTable {

    private BenchTable() {}

    public static String render(Result r) {
        StringBuilder out = new StringBuilder(FigureTable.render("podnuma", rows(r)));
        out.append('\n');
        for (String note : notes(r)) {
            out.append("- ").append(note).append('\n');
        }
        return out.toString();
    }

    static List<Row> rows(Result r) {
        List<Row> rows = new ArrayList<>();
        PinResult p = r.pins();
        int starts = p.exclusiveStarts() + p.sharedStarts();
        LatencySummary bare = p.bareWrite();
        if (p.polled() != null) {
            LatencySummary l = p.polled();
            String what = "Pin latency %s: mkdir → cpuset.cpus holds the set (" + l.count() + " starts, polled)";
            rows.add(row(what.formatted("p50"), l.p50Nanos(), bare.p50Nanos(), "bare write p50", ""));
            rows.add(row(what.formatted("p99"), l.p99Nanos(), bare.p99Nanos(), "bare write p99", "< 10 ms"));
            rows.add(row(what.formatted("max"), l.maxNanos(), bare.maxNanos(), "bare write max", ""));
            LatencySummary floor = p.floor();
            if (floor != null) {
                String vs = "Pin latency %s vs the floor: a minimal watcher, same load (" + floor.count() + " starts)";
                rows.add(row(vs.formatted("p50"), l.p50Nanos(), floor.p50Nanos(), "floor p50", ""));
                rows.add(row(vs.formatted("p99"), l.p99Nanos(), floor.p99Nanos(), "floor p99", ""));
            }
        } else {
            rows.add(new Row("Pin latency (" + starts + " starts)", "no start was pinned within 5 s", "", "", ""));
        }
        PromHistogram h = p.agentHistogram();
        rows.add(new Row(
                "Pin latency p50 / p99, agent's histogram: seen → written (" + h.count() + " pins)",
                "≤ " + seconds(h.quantileUpperBound(0.5)) + " / ≤ " + seconds(h.quantileUpperBound(0.99)),
                "",
                "",
                ""));

        Footprint f = r.footprint();
        int pods = r.settings().pods();
        rows.add(kib(
                "Agent RSS, " + pods + " pods, " + f.containerCgroups() + " container cgroups",
                f.agentRssKib(),
                f.idleJvmRssKib(),
                "< 96 MiB"));
        rows.add(kib(
                "  its anonymous part (RssAnon: what the pod's memory cgroup is charged)",
                f.agentAnonKib(),
                f.idleJvmAnonKib(),
                ""));
        rows.add(kib("Agent RSS, node with no pods", f.emptyAgentRssKib(), f.idleJvmRssKib(), ""));
        long window = f.idleWindow().toSeconds();
        rows.add(millicores(
                "Agent CPU, idle " + window + " s, " + pods + " pods",
                f.agentMillicores(),
                f.idleJvmMillicores(),
                "< 5 m"));
        rows.add(millicores(
                "Agent CPU, idle " + window + " s, no pods", f.emptyAgentMillicores(), f.idleJvmMillicores(), ""));
        rows.add(row(
                "Ready (/readyz 200), " + pods + " pods, first start",
                f.readyCold().toNanos(),
                f.readyEmpty().toNanos(),
                "agent, no pods",
                "< 2 s"));
        rows.add(row(
                "Ready after a restart: checkpoint, " + f.containerCgroups() + " cgroups",
                f.readyRestart().toNanos(),
                f.readyEmpty().toNanos(),
                "agent, no pods",
                "< 2 s"));

        PodResourcesResult pr = r.podResources();
        LatencySummary empty = pr.emptyList().latency();
        rows.add(call(pr.list(), " (" + pr.listedPods() + " pods, " + pr.list().responseBytes() + " B)", empty, "p50"));
        rows.add(call(pr.list(), " (" + pr.listedPods() + " pods)", empty, "p99"));
        rows.add(call(pr.get(), "", empty, "p50"));
        rows.add(call(pr.get(), "", empty, "p99"));
        rows.add(call(pr.allocatable(), "", empty, "p50"));
        rows.add(call(pr.allocatable(), "", empty, "p99"));
        if (r.pool() != null) {
            poolRows(r.pool(), rows);
        }
        return rows;
    }

    private static void poolRows(PoolResult pool, List<Row> rows) {
        String last = "last of " + pool.containers() + " containers holds the new pool (polled)";
        poolRows(
                rows,
                "Shared pool shrink %s: Guaranteed pod create %s → " + last,
                pool.shrink(),
                pool.shrinkAfterReturn(),
                pool.shrinkWatch());
        poolRows(
                rows,
                "Shared pool grow %s: its delete %s → " + last,
                pool.grow(),
                pool.growAfterReturn(),
                pool.growWatch());
        PromHistogram h = pool.agentHistogram();
        rows.add(new Row(
                "Shared pool p50 / p99, agent's histogram: decided → every container holds it (" + h.count()
                        + " changes)",
                "≤ " + seconds(h.quantileUpperBound(0.5)) + " / ≤ " + seconds(h.quantileUpperBound(0.99)),
                "",
                "",
                ""));
    }

    /** p50 and p99 from the call sent against the watch, then p99 from the call returned against the budget. */
    private static void poolRows(
            List<Row> rows, String what, LatencySummary sent, LatencySummary returned, LatencySummary watch) {
        if (sent == null) {
            rows.add(new Row(what.formatted("p50/p99", "sent"), "no change arrived within 5 s", "", "", ""));
            return;
        }
        if (watch == null) {
            rows.add(new Row(what.formatted("p50", "sent"), nanos(sent.p50Nanos()), "no watch event", "", ""));
            rows.add(new Row(what.formatted("p99", "sent"), nanos(sent.p99Nanos()), "no watch event", "", ""));
        } else {
            rows.add(row(what.formatted("p50", "sent"), sent.p50Nanos(), watch.p50Nanos(), "watch event p50", ""));
            rows.add(row(what.formatted("p99", "sent"), sent.p99Nanos(), watch.p99Nanos(), "watch event p99", ""));
        }
        rows.add(new Row(what.formatted("p99", "returned"), nanos(returned.p99Nanos()), "", "", "< 100 ms"));
    }

    static List<String> notes(Result r) {
        PinResult p = r.pins();
        PodResourcesResult pr = r.podResources();
        List<String> notes = new ArrayList<>();
        notes.add("Pin: " + p.exclusiveStarts() + " starts in the pinned pod (CPUs " + p.exclusiveCpus() + "), "
                + p.sharedStarts() + " on the shared pool (CPUs " + p.sharedCpus() + "); each new cgroup starts with"
                + " every CPU. Polled every " + r.settings().pollNanos() / 1000 + " µs; " + p.timeouts()
                + " starts not pinned within 5 s; " + p.wrongAfterRestart() + " containers off their set after the"
                + " restart; drift detected " + fmt(p.driftDetected()) + ". Bare write: the same cgroups, widened to"
                + " every CPU, then the one write of the wanted set timed, with the agent stopped. Floor: one thread in the bench"
                + " JVM that takes the inotify event of a new cgroup and writes cpuset.cpus, timed like the agent"
                + " (mkdir, a process joins, polled), each start right after one of the agent's.");
        notes.add("Footprint: RSS (VmRSS) after the starts and "
                + r.settings().settle().toSeconds() + " s of settling"
                + "; CPU = utime + stime over the idle window. Baseline: a JVM with the same flags running an empty"
                + " main. JVM flags: " + String.join(" ", r.settings().jvmFlags()));
        notes.add("PodResources over the unix socket, client in the bench JVM: "
                + pr.warmupRounds()
                + " warm-up rounds (continued until the client JVM's JIT was quiet, at most three times the timed rounds"
                + " more) + "
                + r.settings().calls()
                + " timed rounds, each round one call of every method in turn"
                + " (empty List, List, Get, GetAllocatableResources), so each meets the same machine; errors: List "
                + pr.list().errors() + ", Get " + pr.get().errors() + ", GetAllocatableResources "
                + pr.allocatable().errors() + ", empty List " + pr.emptyList().errors() + ". Baseline: List on the"
                + " same agent binary on a node with no pods (the fixed cost of one call).");
        PoolResult pool = r.pool();
        if (pool != null) {
            notes.add("Shared pool: its own node and agent, " + pool.containers() + " containers (a process each) on"
                    + " the node shared pool; " + pool.changes() + " times a Guaranteed pod with one CPU created"
                    + " (pool " + pool.widePool() + " → " + pool.narrowPool() + ") and deleted with grace period 0"
                    + " (back), after one untimed change each way. API calls took (sent → returned) create p50 "
                    + nanos(pool.createCall().p50Nanos()) + ", delete p50 "
                    + nanos(pool.deleteCall().p50Nanos())
                    + "; from the call returning, p50 shrink "
                    + nanos(pool.shrinkAfterReturn().p50Nanos())
                    + ", grow " + nanos(pool.growAfterReturn().p50Nanos()) + ". Each container's cpuset.cpus"
                    + " polled every "
                    + r.settings().pollNanos() / 1000 + " µs in"
                    + " the agent's write order, so the last read is at most one sweep late: a sweep over all "
                    + pool.containers() + " files takes " + nanos(pool.sweep().p50Nanos()) + " p50, "
                    + nanos(pool.sweep().maxNanos()) + " max. " + pool.timeouts() + " changes not seen within 5 s."
                    + " Baseline: a fabric8 watch on the pods in the bench JVM, from the same call sent to its"
                    + " ADDED/DELETED event (the API server's delivery floor; " + pool.unwatched() + " events missed; "
                    + pool.eventsBeforeReturn() + " of " + 2 * pool.changes() + " came before the call's response,"
                    + " which is why the ratio is taken from the call sent).");
        }
        notes.add("Machine: before " + r.loadBefore() + "; after " + r.loadAfter() + ".");
        return notes;
    }

    private static Row call(CallResult c, String extra, LatencySummary empty, String which) {
        boolean p50 = which.equals("p50");
        return row(
                "PodResources " + c.method() + " " + which + extra,
                p50 ? c.latency().p50Nanos() : c.latency().p99Nanos(),
                p50 ? empty.p50Nanos() : empty.p99Nanos(),
                "empty List " + which,
                c.method().equals("List") && !p50 ? "p99 < 1 ms" : "");
    }

    private static Row row(String measure, long nanos, long baseNanos, String baseName, String budget) {
        return new Row(measure, nanos(nanos), nanos(baseNanos) + " " + baseName, ratio(nanos, baseNanos), budget);
    }

    private static Row kib(String measure, long kib, long baseKib, String budget) {
        return new Row(measure, mib(kib), mib(baseKib) + " idle JVM", ratio(kib, baseKib), budget);
    }

    private static Row millicores(String measure, double m, double base, String budget) {
        return new Row(measure, fmt(m) + " m", fmt(base) + " m idle JVM", ratio(m, base), budget);
    }

    public static String nanos(long n) {
        if (n < 1_000) {
            return n + " ns";
        }
        if (n < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", n / 1e3);
        }
        if (n < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", n / 1e6);
        }
        double seconds = n / 1e9;
        if (seconds >= 365 * 86_400) { // the kubelet's extrapolated merges
            return String.format(Locale.ROOT, "%.1f years", seconds / (365 * 86_400));
        }
        if (seconds >= 86_400) {
            return String.format(Locale.ROOT, "%.1f days", seconds / 86_400);
        }
        return String.format(Locale.ROOT, "%.2f s", seconds);
    }

    static String seconds(double s) {
        if (Double.isNaN(s)) {
            return "n/a";
        }
        if (Double.isInfinite(s)) {
            return "+Inf";
        }
        return nanos(Duration.ofNanos(Math.round(s * 1e9)).toNanos());
    }

    public static String mib(long kib) {
        return String.format(Locale.ROOT, "%.1f MiB", kib / 1024.0);
    }

    public static String ratio(double value, double base) {
        if (!(base > 0)) {
            return "–";
        }
        return fmt(value / base);
    }

    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
