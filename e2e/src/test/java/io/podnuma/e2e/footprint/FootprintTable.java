package io.podnuma.e2e.footprint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The node group's table: every figure of the agent pod beside the idle-JVM baseline pod of the same run, their ratio
 * and the budget of {@code docs/DESIGN.md} where the issue sets one. Figures are shown, never judged.
 */
final class FootprintTable {

    static final String HEADER = "| Measure | agent pod | baseline | ratio | budget |";

    private FootprintTable() {}

    /** How a figure is shown. */
    enum Unit {
        MIB,
        MILLICORES,
        SECONDS;

        String format(double v) {
            return switch (this) {
                case MIB -> String.format(Locale.ROOT, "%.1f MiB", v);
                case MILLICORES -> String.format(Locale.ROOT, "%.2f m", v);
                case SECONDS -> String.format(Locale.ROOT, "%.2f s", v);
            };
        }
    }

    /** One measure: the agent's figure, the baseline's if it has one, the budget (empty if none). */
    record Row(String measure, Unit unit, double agent, Optional<Double> baseline, String budget) {

        String render() {
            String base = baseline.map(unit::format).orElse("—");
            String ratio = baseline.filter(b -> b > 0)
                    .map(b -> String.format(Locale.ROOT, "%.2f", agent / b))
                    .orElse("—");
            return "| " + measure + " | " + unit.format(agent) + " | " + base + " | " + ratio + " | " + budget + " |";
        }
    }

    /** The rows for {@code agent} against {@code baseline}, CPU measured over {@code idle}. */
    static List<Row> rows(Footprint agent, Footprint baseline, Duration idle) {
        List<Row> rows = new ArrayList<>();
        rows.add(mib("pod cgroup memory.usage_in_bytes", agent, baseline, r -> r.usageBytes(), ""));
        rows.add(mib(
                "pod working set (usage − total_inactive_file: kubectl top, eviction)",
                agent,
                baseline,
                PodCgroup.MemoryReading::workingSetBytes,
                "< 96 MiB"));
        rows.add(mib("pod total_rss (anonymous)", agent, baseline, r -> r.stat().totalRss(), ""));
        rows.add(mib(
                "pod total_cache (page cache)", agent, baseline, r -> r.stat().totalCache(), ""));
        if (agent.memory().kmemBytes().isPresent()
                && baseline.memory().kmemBytes().isPresent()) {
            rows.add(mib(
                    "pod memory.kmem.usage_in_bytes (kernel: stacks, slab)",
                    agent,
                    baseline,
                    r -> r.kmemBytes().orElseThrow(),
                    ""));
        }
        rows.add(kib("java VmRSS", agent, baseline, ProcFs.Resident::vmRssKib));
        rows.add(kib("java RssAnon (in the pod's cgroup)", agent, baseline, ProcFs.Resident::rssAnonKib));
        rows.add(kib(
                "java RssFile (mapped files: libjvm, modules, jar; charged to who read them first)",
                agent,
                baseline,
                ProcFs.Resident::rssFileKib));
        rows.add(new Row(
                "idle CPU over " + idle.toSeconds() + " s (pod cpuacct.usage)",
                Unit.MILLICORES,
                agent.idleMillicores(),
                Optional.of(baseline.idleMillicores()),
                "< 5 m"));
        agent.ready()
                .ifPresent(d -> rows.add(new Row(
                        "ready: JVM start → first /readyz 200",
                        Unit.SECONDS,
                        seconds(d),
                        baseline.ready().map(FootprintTable::seconds),
                        "< 2 s")));
        agent.kubeletReady()
                .ifPresent(d -> rows.add(new Row(
                        "ready as the kubelet reports it (startedAt → Ready, whole seconds)",
                        Unit.SECONDS,
                        seconds(d),
                        baseline.kubeletReady().map(FootprintTable::seconds),
                        "")));
        return rows;
    }

    /** The table as Markdown lines, header first. */
    static List<String> render(List<Row> rows) {
        List<String> lines = new ArrayList<>(List.of(HEADER, "|---|---|---|---|---|"));
        rows.forEach(r -> lines.add(r.render()));
        return lines;
    }

    private static Row mib(
            String measure,
            Footprint agent,
            Footprint baseline,
            java.util.function.ToLongFunction<PodCgroup.MemoryReading> bytes,
            String budget) {
        return new Row(
                measure,
                Unit.MIB,
                bytes.applyAsLong(agent.memory()) / 1048576.0,
                Optional.of(bytes.applyAsLong(baseline.memory()) / 1048576.0),
                budget);
    }

    private static Row kib(
            String measure,
            Footprint agent,
            Footprint baseline,
            java.util.function.ToLongFunction<ProcFs.Resident> kib) {
        return new Row(
                measure,
                Unit.MIB,
                kib.applyAsLong(agent.jvm()) / 1024.0,
                Optional.of(kib.applyAsLong(baseline.jvm()) / 1024.0),
                "");
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
